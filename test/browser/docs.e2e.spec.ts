/**
 * The docs page in a real browser (Debian's Chromium, driven by playwright-core): open
 * /docs on the built service, expand GET /pets, "Try it out", execute, and see the 200.
 * Leaves a screenshot in test-output/.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { type Browser, chromium } from 'playwright-core';

import { ServiceProcess } from '../support/server.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const OUTPUT = join(process.cwd(), 'test-output');
const SCREENSHOT = join(OUTPUT, 'docs-try-it-out.png');

describe('the /docs page in Chromium', () => {
  let service: ServiceProcess;
  let browser: Browser;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(`Chromium not found at ${CHROMIUM}: install Debian's chromium package (.ci/run does).`);
    }
    service = await ServiceProcess.start({ DATABASE_URL: 'sqlite::memory:' });
    const shelter = await service
      .http()
      .post('/shelters')
      .set('Authorization', 'Bearer docs')
      .send({
        name: 'Browser Shelter',
        address: '1 Test Way',
        phone: '+1-555-000-1111',
        email: 'browser@example.org',
        hours: 'daily',
        available_pet_count: 3,
        adoption_fee_range: '10-20',
      })
      .expect(201);
    await service
      .http()
      .post('/pets')
      .set('Authorization', 'Bearer docs')
      .send({
        name: 'Pixel',
        species: 'cat',
        breed: 'Tabby',
        age_months: 7,
        gender: 'male',
        size: 'small',
        temperament: 'curious',
        medical: { spayed_neutered: false, vaccinations: [] },
        description: 'Chases cursors.',
        shelter_id: (shelter.body as { id: number }).id,
        status: 'available',
        intake_date: '2026-11-01',
      })
      .expect(201);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await service?.stop();
  });

  it('runs "Try it out" for GET /pets against the live service and shows the 200', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1400 } });
    const external: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(service.url)) {
        external.push(request.url());
      }
    });
    await page.goto(`${service.url}/docs`);

    const operation = page.locator('#operations-pets-listPets');
    await operation.locator('.opblock-summary').click();
    await operation.locator('.try-out__btn').click();
    await operation.locator('button.execute').click();

    const status = operation.locator('.live-responses-table tr.response .response-col_status').first();
    await status.waitFor();
    expect((await status.innerText()).trim()).toBe('200');
    const body = operation.locator('.live-responses-table tr.response .response-col_description pre').first();
    expect(JSON.parse(await body.innerText())).toEqual([expect.objectContaining({ id: 1, name: 'Pixel' })]);
    expect(external).toEqual([]);

    mkdirSync(OUTPUT, { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    expect(existsSync(SCREENSHOT)).toBe(true);
    console.log(`docs page screenshot: ${SCREENSHOT}`);
  }, 60_000);
});
