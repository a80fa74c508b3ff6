/**
 * Paging and sorting of list routes: `limit`, `offset` and `sort` (`name`, or `-name` for
 * descending; ties broken by id), and the aliases of the JSON mock this API was first
 * prototyped on: `_limit`, `_start` and `_offset`, `_sort` with `_order`.
 */
import { ApiProperty } from '@nestjs/swagger';

import { ValidationException } from '../errors/api.exception.js';
import { Messages, Rules } from '../errors/messages.js';
import { IsIntegerText, IsOneOf } from '../validation/rules.js';
import type { JsonList } from './json-list.js';

export const MAX_LIMIT = 100;

/** The headers of a page, for the OpenAPI document. */
export const PAGE_HEADERS = {
  'X-Total-Count': {
    description: 'With `limit`: how many items match, on all pages together.',
    schema: { type: 'integer', minimum: 0 },
  },
  Link: {
    description: 'With `limit`: RFC 8288 links to the `first`, `prev`, `next` and `last` pages.',
    schema: { type: 'string' },
  },
};
const MAX_OFFSET = 2_147_483_647;

export interface Sort {
  column: string;
  descending: boolean;
}

export interface Page {
  limit: number;
  offset: number;
}

/** A list answer, with its page and the number of matching rows when a page was asked for. */
export interface ListPage {
  list: JsonList;
  page?: Page & { total: number };
}

/** The parameter's description in the OpenAPI document: its rule, then how it combines with the others. */
const Describe = (...sentences: string[]) => ApiProperty({ description: sentences.join(' ') });

function sortsOnlyWithLocation(sorts: readonly string[]): string[] {
  return sorts.length === 0 ? [] : [`${sorts.map((sort) => `\`${sort}\``).join(', ')}: only with \`location\`.`];
}

const signed = (fields: readonly string[]) => fields.flatMap((field) => [field, `-${field}`]);

/**
 * The query parameters a paged list takes; the sort fields are the resource's own.
 * `conditionalSorts` are accepted too but named in no message: another rule says when they
 * apply (`distance`, only with `location`: see near.ts).
 */
export function PagedQuery(sortFields: readonly string[], conditionalSorts: readonly string[] = []) {
  const sortValues = signed(sortFields);
  const otherSorts = signed(conditionalSorts);
  const sortRule = Rules.oneOf(sortValues);

  class PagedQueryDto {
    @Describe(
      Rules.integerRange(1, MAX_LIMIT),
      'Answers one page of at most this many items, with `X-Total-Count` and `Link`.',
    )
    @IsIntegerText(1, MAX_LIMIT)
    limit?: string;

    @Describe(Rules.integerRange(0, MAX_OFFSET), Rules.onlyWith('limit'), 'Items skipped before the page (default 0).')
    @IsIntegerText(0, MAX_OFFSET)
    offset?: string;

    @Describe(
      sortRule,
      'A field, or `-field` for descending; ties are broken by id.',
      ...sortsOnlyWithLocation(otherSorts),
    )
    @IsOneOf(sortValues, otherSorts)
    sort?: string;

    @Describe('The same as `limit`.', Rules.notWith('limit'))
    @IsIntegerText(1, MAX_LIMIT)
    _limit?: string;

    @Describe('The same as `offset`.', Rules.onlyWith('limit'), Rules.notWith('offset'))
    @IsIntegerText(0, MAX_OFFSET)
    _start?: string;

    @Describe('The same as `offset`.', Rules.onlyWith('limit'), Rules.notWith('offset'), Rules.notWith('_start'))
    @IsIntegerText(0, MAX_OFFSET)
    _offset?: string;

    @Describe('The same as `sort`.', Rules.notWith('sort'))
    @IsOneOf(sortValues, otherSorts)
    _sort?: string;

    @Describe('`desc` makes the sort descending.')
    @IsOneOf(['asc', 'desc'])
    _order?: string;
  }
  return PagedQueryDto;
}

export type PagedQueryDto = InstanceType<ReturnType<typeof PagedQuery>>;

/** The names under which a client may send each paging parameter, the contract's own first. */
const ALIASES = {
  limit: ['limit', '_limit'],
  offset: ['offset', '_start', '_offset'],
  sort: ['sort', '_sort'],
} as const;

/** The 400 of a query parameter: `Invalid value for 'field'. <rule>` under "Invalid query parameter format". */
export function invalidQueryValue(field: string, rule: string): ValidationException {
  return new ValidationException([{ field, message: Messages.invalidValue(field, rule) }], Messages.invalidQuery());
}

/** The name and value given for a parameter under any of its names; two names at once are a 400. */
function aliased(query: PagedQueryDto, names: readonly (keyof PagedQueryDto)[]): [string, string] | [] {
  const given = names.filter((name) => query[name] !== undefined);
  if (given.length > 1) {
    throw invalidQueryValue(given[1], Rules.notWith(given[0]));
  }
  return given.length === 1 ? [given[0], query[given[0]]!] : [];
}

/** Where a list starts, how long it is, and its order. Without a limit, the whole list. */
export function pagingOf(query: PagedQueryDto): { sort: Sort; page?: Page } {
  const [, limit] = aliased(query, ALIASES.limit);
  const [offsetName, offset] = aliased(query, ALIASES.offset);
  if (offsetName !== undefined && limit === undefined) {
    throw invalidQueryValue(offsetName, Rules.onlyWith('limit'));
  }
  let sortText = aliased(query, ALIASES.sort)[1] ?? 'id';
  if (query._order === 'desc' && !sortText.startsWith('-')) {
    sortText = `-${sortText}`;
  }
  const sort = { column: sortText.replace(/^-/, ''), descending: sortText.startsWith('-') };
  if (limit === undefined) {
    return { sort };
  }
  return { sort, page: { limit: Number(limit), offset: Number(offset ?? 0) } };
}

/** The name the client used for the offset, so that links it follows read like its own request. */
export function offsetParameter(search: URLSearchParams): string {
  return ALIASES.offset.find((name) => search.has(name)) ?? 'offset';
}
