/** The sample data `npm run seed` loads: five shelters and three dozen pets. */
const SHELTER_PROFILES = [
  {
    name: 'Happy Tails Rescue',
    address: '12 Main St, Portland, OR 97202',
    phone: '+1-555-123-4567',
    email: 'hello@happytails.org',
    hours: 'Mon-Fri 9:00-17:00, Sat 10:00-14:00',
    adoption_fee_range: '75-200',
  },
  {
    name: 'Riverside Animal Shelter',
    address: '480 River Rd, Portland, OR 97217',
    phone: '+1-555-234-5678',
    email: 'adopt@riverside-shelter.org',
    hours: 'Tue-Sun 11:00-18:00',
    adoption_fee_range: '50-150',
  },
  {
    name: 'Whisker Haven Cat Sanctuary',
    address: '7 Elm Ct, Salem, OR 97301',
    phone: '+1-555-345-6789',
    email: 'cats@whiskerhaven.org',
    hours: 'Daily 12:00-19:00',
    adoption_fee_range: '40-90',
  },
  {
    name: 'Second Chance Dog Rescue',
    address: '2215 Oak Ave, Eugene, OR 97401',
    phone: '+1-555-456-7890',
    email: 'info@secondchancedogs.org',
    hours: 'Wed-Sun 10:00-16:00',
    adoption_fee_range: '100-300',
  },
  {
    name: 'North Haverbrook Humane Society',
    address: '99 Monorail Way, Seattle, WA 98101',
    phone: '+1-555-567-8901',
    email: 'contact@nhhumane.org',
    hours: 'Mon-Sat 9:00-17:00',
    adoption_fee_range: '0-125',
  },
] as const;

const CAT_NAMES = [
  'Whiskers',
  'Luna',
  'Milo',
  'Cleo',
  'Oliver',
  'Nala',
  'Simba',
  'Pepper',
  'Mochi',
  'Ziggy',
  'Hazel',
  'Tiger',
  'Olive',
  'Figaro',
  'Juniper',
  'Biscuit',
  'Saffron',
  'Pumpkin',
];
const DOG_NAMES = [
  'Buddy',
  'Bella',
  'Max',
  'Daisy',
  'Rocky',
  'Sadie',
  'Cooper',
  'Rosie',
  'Duke',
  'Maple',
  'Bear',
  'Penny',
  'Scout',
  'Willow',
  'Ranger',
  'Ginger',
  'Murphy',
  'Pixie',
];
const CAT_BREEDS = ['Siamese', 'Maine Coon', 'Domestic Shorthair', 'Tabby', 'Ragdoll', 'Bengal'];
const DOG_BREEDS = ['Labrador Retriever', 'Beagle', 'German Shepherd', 'Border Collie', 'Pit Bull Mix', 'Dachshund'];
const TEMPERAMENTS = [
  'calm, friendly',
  'playful, curious',
  'shy at first, affectionate',
  'energetic, loves people',
  'gentle, good with kids',
  'independent, quiet',
];
const SIZES = ['small', 'medium', 'large'] as const;
const STATUSES = ['available', 'available', 'available', 'pending', 'adopted'] as const;

/** Three dozen pets spread over species, sizes, statuses and the five shelters (by index). */
export const PETS = Array.from({ length: 36 }, (_, index) => {
  const cat = index % 2 === 0;
  const nth = Math.floor(index / 2);
  const month = String((index % 12) + 1).padStart(2, '0');
  const day = String((index % 27) + 1).padStart(2, '0');
  return {
    shelter: index % SHELTER_PROFILES.length,
    body: {
      name: cat ? CAT_NAMES[nth] : DOG_NAMES[nth],
      species: cat ? 'cat' : 'dog',
      breed: cat ? CAT_BREEDS[nth % CAT_BREEDS.length] : DOG_BREEDS[nth % DOG_BREEDS.length],
      age_months: 3 + ((index * 7) % 130),
      gender: index % 3 === 0 ? 'female' : 'male',
      size: cat ? SIZES[index % 2] : SIZES[index % 3],
      temperament: TEMPERAMENTS[index % TEMPERAMENTS.length],
      medical: {
        spayed_neutered: index % 4 !== 1,
        vaccinations: cat
          ? ['rabies', 'fvrcp'].slice(0, 1 + (index % 2))
          : ['rabies', 'dhpp', 'bordetella'].slice(0, 1 + (index % 3)),
      },
      description: `${cat ? CAT_NAMES[nth] : DOG_NAMES[nth]} came to us in ${2025 + (index % 2)} and is looking for a home.`,
      status: STATUSES[index % STATUSES.length],
      intake_date: `${2025 + (index % 2)}-${month}-${day}`,
    },
  };
});

/** The shelters, each counting the pets of the sample that are available there. */
export const SHELTERS = SHELTER_PROFILES.map((profile, index) => ({
  ...profile,
  available_pet_count: PETS.filter((pet) => pet.shelter === index && pet.body.status === 'available').length,
}));
