import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, VersionColumn } from 'typeorm';

import { RefersTo } from '../common/resources/references.js';

export const SPECIES = ['cat', 'dog'] as const;
export const GENDERS = ['male', 'female'] as const;
export const SIZES = ['small', 'medium', 'large'] as const;
export const STATUSES = ['available', 'pending', 'adopted'] as const;

export type Species = (typeof SPECIES)[number];
export type Gender = (typeof GENDERS)[number];
export type Size = (typeof SIZES)[number];
export type PetStatus = (typeof STATUSES)[number];

/** The key the `breed` filter compares: NFC-normalised and lower-cased, the same on every database. */
export function breedKey(breed: string): string {
  return breed.normalize('NFC').toLowerCase();
}

/**
 * A pet profile. `medical` is stored as two columns so that a PATCH of one nested field
 * is a single-column update. `toJSON` gives the API body: the contract's fields in order.
 */
@Entity({ name: 'pets' })
@Index('idx_pets_shelter_id', ['shelter_id'])
@Index('idx_pets_species_status', ['species', 'status'])
@Index('idx_pets_breed_key', ['breed_key'])
@Index('idx_pets_age_months', ['age_months'])
@Index('idx_pets_intake_date', ['intake_date'])
// By code point on PostgreSQL (COLLATE "C"), and the trigram indexes of `q`: see the migration.
@Index('idx_pets_name', { synchronize: false })
@Index('idx_pets_temperament_trgm', { synchronize: false })
@Index('idx_pets_search_trgm', { synchronize: false })
export class Pet {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id!: number;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  species!: Species;

  @Column({ type: 'text' })
  breed!: string;

  @Column({ type: 'text', select: false })
  breed_key!: string;

  @Column({ type: 'integer' })
  age_months!: number;

  @Column({ type: 'text' })
  gender!: Gender;

  @Column({ type: 'text' })
  size!: Size;

  @Column({ type: 'text' })
  temperament!: string;

  @Column({ name: 'medical_spayed_neutered', type: 'boolean' })
  spayed_neutered!: boolean;

  @Column({ name: 'medical_vaccinations', type: 'jsonb' })
  vaccinations!: string[];

  @Column({ type: 'text' })
  description!: string;

  @Column({ type: 'integer' })
  @RefersTo('shelter', { one: 'pet', many: 'pets' })
  shelter_id!: number;

  /** The foreign key, named for the schema tools; the entity is named rather than imported. */
  @ManyToOne('Shelter', { onDelete: 'RESTRICT', onUpdate: 'NO ACTION' })
  @JoinColumn({ name: 'shelter_id', foreignKeyConstraintName: 'fk_pets_shelter_id' })
  shelter?: unknown;

  @Column({ type: 'text' })
  status!: PetStatus;

  @Column({ type: 'date' })
  intake_date!: string;

  /** Bumped by every write; the source of the ETag. */
  @VersionColumn({ type: 'integer' })
  version!: number;

  toJSON(): PetBody {
    return {
      name: this.name,
      species: this.species,
      breed: this.breed,
      age_months: this.age_months,
      gender: this.gender,
      size: this.size,
      temperament: this.temperament,
      medical: { spayed_neutered: this.spayed_neutered, vaccinations: this.vaccinations },
      description: this.description,
      shelter_id: this.shelter_id,
      status: this.status,
      intake_date: this.intake_date,
      id: this.id,
    };
  }
}

export interface PetBody {
  name: string;
  species: Species;
  breed: string;
  age_months: number;
  gender: Gender;
  size: Size;
  temperament: string;
  medical: { spayed_neutered: boolean; vaccinations: string[] };
  description: string;
  shelter_id: number;
  status: PetStatus;
  intake_date: string;
  id: number;
}
