import { Messages, Rules } from './messages.js';

describe('Messages', () => {
  it('builds the contract sentences from field and rule', () => {
    expect(Messages.invalidValue('species', Rules.oneOf(['cat', 'dog']))).toBe(
      "Invalid value for 'species'. Must be one of the allowed values (cat, dog).",
    );
    expect(Messages.invalidValue('medical', Rules.object(['spayed_neutered', 'vaccinations']))).toBe(
      "Invalid value for 'medical'. Must be an object with 'spayed_neutered' and 'vaccinations'.",
    );
    expect(Messages.invalidValue('age_months', Rules.integerRange(0, 600))).toBe(
      "Invalid value for 'age_months'. Must be an integer from 0 to 600.",
    );
    expect(Messages.missingField('medical.vaccinations')).toBe('Missing required field: medical.vaccinations');
    expect(Messages.unknownField('medical.color')).toBe("Unknown field: 'medical.color'.");
  });

  it('names the body limit in kilobytes', () => {
    expect(Messages.bodyTooLarge(102_400)).toBe('Request body exceeds the 100 KB limit.');
    expect(Messages.bodyTooLarge(1000)).toBe('Request body exceeds the 1000 bytes limit.');
  });

  it('counts pets in the conflict message', () => {
    const pets = { one: 'pet', many: 'pets' };
    const volunteers = { one: 'volunteer', many: 'volunteers' };
    const interests = { one: 'interest', many: 'interests' };
    expect(Messages.stillReferenced('shelter', '1', [{ count: 1, names: pets }])).toBe(
      "Shelter with 'id' 1 still has 1 pet. Move or delete them first.",
    );
    expect(Messages.stillReferenced('shelter', '1', [{ count: 2, names: pets }])).toBe(
      "Shelter with 'id' 1 still has 2 pets. Move or delete them first.",
    );
    expect(
      Messages.stillReferenced('shelter', '1', [
        { count: 2, names: pets },
        { count: 1, names: volunteers },
      ]),
    ).toBe("Shelter with 'id' 1 still has 2 pets and 1 volunteer. Move or delete them first.");
    expect(
      Messages.stillReferenced('pet', '7', [
        { count: 3, names: interests },
        { count: 1, names: volunteers },
        { count: 2, names: pets },
      ]),
    ).toBe("Pet with 'id' 7 still has 3 interests, 1 volunteer and 2 pets. Move or delete them first.");
  });
});
