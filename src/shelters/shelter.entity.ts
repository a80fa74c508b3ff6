import { Column, Entity, Index, PrimaryGeneratedColumn, VersionColumn } from 'typeorm';

/** A shelter profile. `toJSON` gives the API body: the contract's fields in order, `id` last. */
@Entity({ name: 'shelters' })
// By code point on PostgreSQL (COLLATE "C"): see the migration.
@Index('idx_shelters_name', { synchronize: false })
@Index('idx_shelters_location', ['latitude', 'longitude'])
export class Shelter {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id!: number;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  address!: string;

  @Column({ type: 'text' })
  phone!: string;

  @Column({ type: 'text' })
  email!: string;

  @Column({ type: 'text' })
  hours!: string;

  @Column({ type: 'integer' })
  available_pet_count!: number;

  @Column({ type: 'text' })
  adoption_fee_range!: string;

  /**
   * Where the shelter lies, for location searches: the centroid of the ZIP code in its address,
   * set by every write that sets the address; null without a known ZIP code. Not in the API body.
   */
  @Column({ type: 'double precision', nullable: true })
  latitude!: number | null;

  @Column({ type: 'double precision', nullable: true })
  longitude!: number | null;

  /** Bumped by every write; the source of the ETag. */
  @VersionColumn({ type: 'integer' })
  version!: number;

  toJSON(): ShelterBody {
    return {
      name: this.name,
      address: this.address,
      phone: this.phone,
      email: this.email,
      hours: this.hours,
      available_pet_count: this.available_pet_count,
      adoption_fee_range: this.adoption_fee_range,
      id: this.id,
    };
  }
}

export interface ShelterBody {
  name: string;
  address: string;
  phone: string;
  email: string;
  hours: string;
  available_pet_count: number;
  adoption_fee_range: string;
  id: number;
}
