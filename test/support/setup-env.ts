import 'reflect-metadata';

// Tests use a fresh in-memory database and quiet logs unless a test says otherwise.
process.env.DATABASE_URL ??= 'sqlite::memory:';
process.env.LOG_LEVEL ??= 'silent';
