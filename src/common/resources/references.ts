/**
 * Links between resources, declared once on the referring column and enforced here for every
 * module: `@RefersTo('shelter', { one: 'pet', many: 'pets' })` on `Pet.shelter_id` gives
 *   - 400 `Invalid value for 'shelter_id'. Shelter with 'id' 42 not found.` for a body naming
 *     a missing shelter (also when it vanishes meanwhile: the foreign key refuses the write);
 *   - 404 `Shelter with 'id' 42 not found.` for a list filtered on a missing shelter;
 *   - 409 `Shelter with 'id' 1 still has 2 pets and 1 volunteer. Move or delete them first.`
 *     when a shelter that is still referred to is deleted, every referring module counted in
 *     the delete's own transaction (the shelter's row locked first on PostgreSQL, so no
 *     referring row can appear between the count and the delete).
 * Neither side imports the other: they meet through resource names. A reference declared
 * `deletedWithParent` is deleted with its parent by the foreign key instead of answering 409.
 */
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';

import { ApiException, ResourceNotFoundException, ValidationException } from '../errors/api.exception.js';
import { Messages, type ResourceName, Rules } from '../errors/messages.js';

const REFERENCES = Symbol('references');

/** How a referring resource is counted in a parent's 409: `1 pet`, `2 pets`. */
export interface DependentNames {
  one: string;
  many: string;
  /**
   * The referring rows go with their parent (the foreign key deletes them: `ON DELETE
   * CASCADE`), so they never keep the parent from being deleted: a pet's interests.
   */
  deletedWithParent?: boolean;
}

interface Declared {
  property: string;
  parent: ResourceName;
  names: DependentNames;
}

/** A column that refers to another resource's id. */
export interface Reference extends Declared {
  entity: EntityTarget<ObjectLiteral>;
}

/** Declares that this column holds the id of a `parent` resource (by its resource name). */
export function RefersTo(parent: ResourceName, names: DependentNames): PropertyDecorator {
  return (target, property) => {
    const declared = (Reflect.getMetadata(REFERENCES, target.constructor) as Declared[] | undefined) ?? [];
    Reflect.defineMetadata(
      REFERENCES,
      [...declared, { property: String(property), parent, names }],
      target.constructor,
    );
  };
}

/** Whether a row of a parent resource exists; each resource answers for its own name. */
export interface ParentLookup {
  /** The parent's entity. */
  entity: EntityTarget<ObjectLiteral>;
  exists(id: string | number, manager: EntityManager): Promise<boolean>;
  /** Locks the parent's row until the transaction ends (PostgreSQL), so no new reference to it can commit. */
  lock(id: number, manager: EntityManager): Promise<void>;
}

/** 409: the resource is still referred to. */
export class StillReferencedException extends ApiException {
  constructor(resource: ResourceName, id: string, counts: { count: number; names: DependentNames }[]) {
    super(409, Messages.stillReferenced(resource, id, counts));
  }
}

/** 400: a body names a parent that does not exist. */
export class UnknownReferenceException extends ValidationException {
  constructor(field: string, parent: ResourceName, id: unknown) {
    super([{ field, message: Messages.invalidValue(field, Rules.referenceNotFound(parent, idText(id))) }]);
  }
}

function idText(id: unknown): string {
  return typeof id === 'number' && !Number.isSafeInteger(id) ? BigInt(id).toString() : String(id);
}

@Injectable()
export class References {
  private readonly parents = new Map<ResourceName, ParentLookup>();
  private declared?: Reference[];

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Called by each resource (VersionedResource): how to find a row of `resource`. */
  registerParent(resource: ResourceName, lookup: ParentLookup): void {
    this.parents.set(resource, lookup);
  }

  /** The entity a reference column of `entity` points at. */
  parentEntity(entity: EntityTarget<ObjectLiteral>, property: string): EntityTarget<ObjectLiteral> {
    const reference = this.of(entity).find((candidate) => candidate.property === property);
    if (reference === undefined) {
      throw new Error(`'${property}' is no reference column of its entity.`);
    }
    return this.lookup(reference.parent).entity;
  }

  /** The referring columns of an entity. */
  of(entity: EntityTarget<ObjectLiteral>): Reference[] {
    return this.all().filter((reference) => reference.entity === entity);
  }

  /** 400 for the first column of `columns` that names a missing parent. */
  async assertParentsExist(
    entity: EntityTarget<ObjectLiteral>,
    columns: object,
    manager: EntityManager,
  ): Promise<void> {
    for (const reference of this.of(entity)) {
      const id = (columns as Record<string, unknown>)[reference.property];
      // A reference may be optional: null names no parent.
      if (id !== undefined && id !== null && !(await this.lookup(reference.parent).exists(id as number, manager))) {
        throw new UnknownReferenceException(reference.property, reference.parent, id);
      }
    }
  }

  /** The 400 for a write the foreign key refused: the reference the write set, if it set one. */
  refusedReference(entity: EntityTarget<ObjectLiteral>, columns: object): UnknownReferenceException | undefined {
    const reference = this.of(entity).find((candidate) => candidate.property in columns);
    return reference === undefined
      ? undefined
      : new UnknownReferenceException(
          reference.property,
          reference.parent,
          (columns as Record<string, unknown>)[reference.property],
        );
  }

  /** 404 when a list is filtered on a missing parent (`where` values as sent or as numbers). */
  async assertFilteredParentsExist(
    entity: EntityTarget<ObjectLiteral>,
    where: object,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    for (const reference of this.of(entity)) {
      const id = (where as Record<string, unknown>)[reference.property];
      if (
        (typeof id === 'string' || typeof id === 'number') &&
        !(await this.lookup(reference.parent).exists(id, manager))
      ) {
        throw new ResourceNotFoundException(reference.parent, idText(id));
      }
    }
  }

  /** 409 unless nothing refers to this row of `resource`; run inside the delete's transaction. */
  async assertUnreferenced(
    resource: ResourceName,
    id: number,
    sentId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    // Named in alphabetical order, whatever order the modules were loaded in.
    const dependents = this.all()
      .filter((reference) => reference.parent === resource && !reference.names.deletedWithParent)
      .sort((a, b) => a.names.many.localeCompare(b.names.many));
    if (dependents.length === 0) {
      return;
    }
    await this.lookup(resource).lock(id, manager);
    const counts = [];
    for (const reference of dependents) {
      const count = await manager.countBy(reference.entity, { [reference.property]: id });
      if (count > 0) {
        counts.push({ count, names: reference.names });
      }
    }
    if (counts.length > 0) {
      throw new StillReferencedException(resource, sentId, counts);
    }
  }

  private lookup(resource: ResourceName): ParentLookup {
    const lookup = this.parents.get(resource);
    if (lookup === undefined) {
      throw new Error(`No store serves the resource '${resource}' that a reference names.`);
    }
    return lookup;
  }

  /** Every declared reference of the connection's entities, read once. */
  private all(): Reference[] {
    this.declared ??= this.dataSource.entityMetadatas.flatMap((metadata) =>
      ((Reflect.getMetadata(REFERENCES, metadata.target as object) as Declared[] | undefined) ?? []).map(
        (declared) => ({ ...declared, entity: metadata.target }),
      ),
    );
    return this.declared;
  }
}
