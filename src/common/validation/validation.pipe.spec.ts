import 'reflect-metadata';

import { IsEmail, IsIn, IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';

import { ValidationException } from '../errors/api.exception.js';
import { IsOneOf, IsText } from './rules.js';
import { ValidationPipe } from './validation.pipe.js';

class StockDto {
  @IsString()
  @Length(2, 20)
  name!: string;

  @IsInt()
  @Min(1)
  @Max(40)
  hours!: number;

  @IsIn(['day', 'night'])
  shift!: string;

  @IsEmail()
  email!: string;

  @IsOptional()
  @IsString()
  note?: string;
}

class OwnRulesDto {
  @IsText(10)
  name!: string;

  @IsOneOf(['cat', 'dog'])
  species!: string;
}

class QueryDto {
  @IsOptional()
  @IsIn(['cat', 'dog'])
  species?: string;
}

const pipe = new ValidationPipe();
const body = (dto: new () => object, value: unknown) => pipe.transform(value, { type: 'body', metatype: dto });
const query = (value: Record<string, unknown>) => pipe.transform(value, { type: 'query', metatype: QueryDto });

function detailsOf(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationException);
    return { message: (error as ValidationException).message, details: (error as ValidationException).details };
  }
  throw new Error('expected a validation error');
}

describe('ValidationPipe', () => {
  it("words class-validator's own decorators in the contract's style, in declaration order", () => {
    expect(detailsOf(() => body(StockDto, { name: 'A', hours: 41, shift: 'noon', email: 'nope', note: 3 }))).toEqual({
      message: "Invalid value for 'name'. Must be 2 to 20 characters long.",
      details: [
        { field: 'name', message: "Invalid value for 'name'. Must be 2 to 20 characters long." },
        { field: 'hours', message: "Invalid value for 'hours'. Must be at most 40." },
        { field: 'shift', message: "Invalid value for 'shift'. Must be one of the allowed values (day, night)." },
        { field: 'email', message: "Invalid value for 'email'. Must be a valid email address." },
        { field: 'note', message: "Invalid value for 'note'. Must be a string." },
      ],
    });
  });

  it('reports missing fields and unknown fields first, whatever decorators a DTO uses', () => {
    expect(detailsOf(() => body(StockDto, { color: 'red', hours: 2.5, shift: 'day', email: 'a@b.org' }))).toEqual({
      message: "Unknown field: 'color'.",
      details: [
        { field: 'color', message: "Unknown field: 'color'." },
        { field: 'name', message: 'Missing required field: name' },
        { field: 'hours', message: "Invalid value for 'hours'. Must be an integer." },
      ],
    });
  });

  it("keeps the project's own rules' sentences as they are", () => {
    expect(detailsOf(() => body(OwnRulesDto, { name: '', species: 'cow' }))).toEqual({
      message: "Invalid value for 'name'. Must be a non-empty string of at most 10 characters.",
      details: [
        { field: 'name', message: "Invalid value for 'name'. Must be a non-empty string of at most 10 characters." },
        { field: 'species', message: "Invalid value for 'species'. Must be one of the allowed values (cat, dog)." },
      ],
    });
  });

  it('hands every request its own query object, so a service may change it', () => {
    const first = query({ species: 'cat' }) as QueryDto;
    first.species = 'dog';
    const second = query({ species: 'cat' }) as QueryDto;
    expect(second).toBeInstanceOf(QueryDto);
    expect(second.species).toBe('cat');
  });

  it('refuses the same invalid query string every time it is sent', () => {
    for (let round = 0; round < 3; round++) {
      expect(detailsOf(() => query({ species: 'cow' }))).toEqual({
        message: 'Invalid query parameter format',
        details: [
          { field: 'species', message: "Invalid value for 'species'. Must be one of the allowed values (cat, dog)." },
        ],
      });
    }
  });
});
