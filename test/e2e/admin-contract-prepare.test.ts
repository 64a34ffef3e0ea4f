import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatTimestamp } from '../../shared/time';
import { fitsWidth, UI_TIMEOUT_MS } from '../helpers/admin-ui';
import { auditAccessibility, launchBrowser, openPage, screenshot } from '../helpers/browser';
import { partyStateOf, waitForStatus } from '../helpers/contract-page';
import { makePdf } from '../helpers/pdfs';
import { makeContract, mailsTo, startSigningEnv, waitForMailsTo, type SigningEnv } from '../helpers/signing';

/** A reminder "day" is a second here, so that reminders arrive while the page is open. */
const DAY_MS = 1_000;
/** How long the page may take to show a change on a busy machine. */
const until = { timeout: 20_000, interval: 50 };

describe('preparing and managing contracts in the admin UI', () => {
  let env: SigningEnv;
  let browser: Browser;
  beforeAll(async () => {
    env = await startSigningEnv({ reminderDayMs: DAY_MS });
    browser = await launchBrowser();
    // Long intervals unless a test asks for short ones: nothing is reminded behind a test's back.
    await env.t.api('PUT', '/api/settings/reminders', {
      body: { reminder_interval_days: 300, expiry_warning_days: null },
    });
    await env.t.api('PUT', '/api/settings/general', {
      body: { office_name: 'Berg & Partners Advokatbyrå', office_email: 'office@berg.test' },
    });
  });
  afterAll(async () => {
    await browser?.close();
    await env?.close();
  });

  /** Signs in through the sign-in page (the office's details are set in beforeAll) and opens a route. */
  async function signIn(page: Page, route: string, heading: string): Promise<void> {
    await page.goto(`${env.t.url}/admin${route}`);
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill('correct horse');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('heading', { name: heading, level: 1 }).isVisible(), until).toBe(true);
  }
  const apiContract = async (self: string) => (await env.t.api('GET', self)).body;
  const idOfPage = (page: Page) => Number(new URL(page.url()).pathname.split('/').at(-1));

  it('names a new contract after its file, edits a party, sets the end date and reminders, sends and duplicates', async () => {
    const { t } = env;
    const { page, problems } = await openPage(browser);
    await signIn(page, '/contracts', 'Contracts');
    await page.getByRole('button', { name: 'New contract' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'New contract' });
    await dialog.getByLabel('A PDF file').check();
    await dialog.getByLabel('PDF file', { exact: true }).setInputFiles({
      name: 'Hyresavtal Storgatan 1.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from(await makePdf({ pages: 2 })),
    });
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect
      .poll(() => page.getByRole('heading', { name: 'Hyresavtal Storgatan 1', level: 1 }).isVisible(), until)
      .toBe(true);
    const self = `/api/contracts/${idOfPage(page)}`;
    expect((await apiContract(self)).name).toBe('Hyresavtal Storgatan 1');

    const addParty = page.getByRole('form', { name: 'Add a party' });
    await addParty.getByLabel('Name').fill('Eva Nordin');
    await addParty.getByLabel('E-mail').fill('eva@nordin.test');
    await addParty.getByRole('button', { name: 'Add party' }).click();
    await expect.poll(() => partyStateOf(page, 'Eva Nordin'), until).toBe('draft');

    // A party is edited in place; a mistake is said once, beside its field, in the form's words.
    await page.getByRole('button', { name: 'Edit Eva Nordin' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Eva Nordin' });
    await edit.getByLabel('E-mail').fill('');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => edit.getByRole('alert').textContent(), until).toBe('Check the fields marked below.');
    expect(await edit.locator('.field-error').allTextContents()).toEqual(['is required when Delivery is E-mail']);
    await screenshot(page, 'prepare-party-edit-error');
    expect(await auditAccessibility(page), 'party edit dialog').toEqual([]);
    await edit.getByLabel('E-mail').fill('eva.nordin@nordin.test');
    await edit.getByLabel('Mobile phone').fill('+46 70 123 45 67');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('dialog').count(), until).toBe(0);
    await expect.poll(() => page.getByText('eva.nordin@nordin.test · +46 70 123 45 67').isVisible(), until).toBe(true);

    // The end date: YYYY-MM-DD and a 24-hour time, whatever the browser's locale.
    const details = page.getByRole('form', { name: 'Details' });
    await details.getByLabel('Date (YYYY-MM-DD)').fill('12/31/2026');
    await details.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(() => details.getByText('Write the date as YYYY-MM-DD, for example 2026-12-31.').isVisible(), until)
      .toBe(true);
    const day = formatTimestamp(Date.now() + 40 * 86_400_000, t.server.ctx.config.timeZone).slice(0, 10);
    await details.getByLabel('Date (YYYY-MM-DD)').fill(day);
    await details.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => details.getByRole('status').filter({ hasText: 'Saved.' }).isVisible(), until).toBe(true);
    expect((await apiContract(self)).expire_time).toBe(`${day} 23:59:00`);

    const reminders = page.getByRole('form', { name: 'Reminders' });
    await reminders.getByLabel('Every (days)').fill('0');
    await reminders.getByRole('button', { name: 'Save reminders' }).click();
    await expect.poll(() => reminders.getByText('A whole number of days, 1 to 365.').isVisible(), until).toBe(true);
    await reminders.getByLabel('Every (days)').fill('200');
    await reminders.getByLabel('At most (per party)').fill('4');
    await reminders.getByLabel('Warn before the links close').check();
    await reminders.getByLabel('Days before the links close').fill('5');
    await reminders.getByRole('button', { name: 'Save reminders' }).click();
    await expect.poll(async () => (await apiContract(self)).reminder_max_count, until).toBe(4);
    expect(await apiContract(self)).toMatchObject({ reminder_interval_days: 200, expiry_warning_days: 5 });
    await screenshot(page, 'prepare-contract-draft');
    expect(await auditAccessibility(page), 'draft with an end date and reminders').toEqual([]);

    await page.getByRole('button', { name: 'Send for signing' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Send', exact: true }).click();
    await waitForStatus(page, 'sent');
    const sent = await apiContract(self);
    await expect
      .poll(() => page.getByTestId('reminder-status').textContent(), until)
      .toContain(`Next reminder on ${sent.next_reminder_time.slice(0, 16)} · 0 of 4 sent`);
    expect(await page.getByTestId('reminder-status').textContent()).toContain(
      `Expiry warning on ${sent.expiry_warning_time.slice(0, 16)}`,
    );
    // Reminders stay changeable while the contract is out.
    await reminders.getByLabel('Send automatic reminders').uncheck();
    await reminders.getByRole('button', { name: 'Save reminders' }).click();
    await expect
      .poll(() => page.getByTestId('reminder-status').textContent(), until)
      .toContain('Automatic reminders are off.');
    expect((await apiContract(self)).next_reminder_time).toBeNull();
    await screenshot(page, 'prepare-contract-sent');
    expect(await fitsWidth(page)).toBe(true);
    expect(await auditAccessibility(page), 'sent contract with reminders').toEqual([]);

    await page.getByRole('button', { name: 'Duplicate' }).click();
    await expect
      .poll(() => page.getByRole('heading', { name: 'Hyresavtal Storgatan 1 (copy)', level: 1 }).isVisible(), until)
      .toBe(true);
    await waitForStatus(page, 'draft');
    await expect.poll(() => partyStateOf(page, 'Eva Nordin'), until).toBe('draft');
    const copy = await apiContract(`/api/contracts/${idOfPage(page)}`);
    expect(copy).toMatchObject({ expire_time: `${day} 23:59:00`, reminder_interval_days: null, reminder_max_count: 4 });
    await expect
      .poll(() => page.getByTestId('activity-row').first().textContent(), until)
      .toContain(`copy of contract ${Number(self.split('/').at(-1))}`);
    expect(problems).toEqual([]);
  }, 120_000);

  it('shows reminders as they go out, then withdraws the contract: the party is told and its link says so', async () => {
    const { t, smtp } = env;
    const contract = await makeContract(t, [{ name: 'Frida Lind', email: 'frida@lind.test' }], {
      reminder_interval_days: 1,
      reminder_max_count: 1,
    });
    const { page, problems } = await openPage(browser);
    await signIn(page, `/contracts/${contract.id}`, 'Hyresavtal Storgatan 1');
    await page.getByRole('button', { name: 'Send for signing' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Send', exact: true }).click();
    await waitForStatus(page, 'sent');

    const [, reminder] = await waitForMailsTo(smtp, 'frida@lind.test', 2);
    expect(reminder?.mail.subject).toMatch(/^Reminder: /);
    await expect.poll(() => page.getByText('Reminded 1×').isVisible(), until).toBe(true);
    const row = page.locator('[data-testid="activity-row"][data-event="party.reminded"]');
    await expect.poll(() => row.count(), until).toBe(1);
    // The event's name, its place in the chain and code, whom and how, then who acted.
    expect((await row.textContent())?.replace(/\s+/g, ' ')).toMatch(
      /Reminder sent#\d+ party\.remindedFrida Lind · by e-mail · frida@lind\.testSignDeskAutomatic/,
    );
    await expect
      .poll(() => page.getByTestId('reminder-status').textContent(), until)
      .toContain('No reminder ahead · 1 of 1 sent');

    await page.getByRole('button', { name: 'Withdraw' }).click();
    const dialog = page.getByRole('dialog', { name: 'Withdraw the contract' });
    expect(
      await dialog.getByText('Otherwise these parties are told by their delivery method: Frida Lind.').isVisible(),
    ).toBe(true);
    await dialog.getByLabel('Reason (optional)').fill('Fel hyresbelopp');
    await screenshot(page, 'prepare-withdraw-dialog');
    expect(await auditAccessibility(page), 'withdraw dialog').toEqual([]);
    await dialog.getByRole('button', { name: 'Withdraw' }).click();
    await waitForStatus(page, 'withdrawn');
    await page
      .getByRole('heading', { name: 'The contract was withdrawn', level: 2 })
      .waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await page.locator('.status-cause').textContent()).toBe('Fel hyresbelopp');
    await expect
      .poll(() => page.getByTestId('reminder-status').textContent(), until)
      .toContain('The contract is no longer out for signing');
    expect(await page.getByRole('button', { name: 'Send reminder' }).count()).toBe(0);
    const [, , notice] = await waitForMailsTo(smtp, 'frida@lind.test', 3);
    expect(notice?.mail.text).toContain('Reason: Fel hyresbelopp');
    const log = page.locator('[data-testid="activity-row"][data-event="contract.withdrawn"]');
    await expect.poll(() => log.textContent(), until).toContain('admin');
    expect(await log.textContent()).toContain('reason: Fel hyresbelopp');
    await screenshot(page, 'prepare-withdrawn');
    expect(await auditAccessibility(page), 'withdrawn contract').toEqual([]);

    const party = await openPage(browser);
    await party.page.goto(contract.parties[0]!.contract_url);
    await expect
      .poll(() => party.page.getByRole('heading', { name: 'The document was withdrawn' }).isVisible(), until)
      .toBe(true);
    await screenshot(party.page, 'signing-withdrawn');

    await page.getByRole('combobox', { name: 'Language', exact: true }).selectOption('sv');
    await expect
      .poll(() => page.getByRole('heading', { name: 'Avtalet har återkallats', level: 2 }).isVisible(), until)
      .toBe(true);
    await page.getByRole('button', { name: 'Duplicera' }).waitFor({ timeout: UI_TIMEOUT_MS });
    await screenshot(page, 'prepare-withdrawn-sv');
    expect(await auditAccessibility(page), 'withdrawn contract in Swedish').toEqual([]);
    await page.getByRole('combobox', { name: 'Språk', exact: true }).selectOption('en');
    expect(mailsTo(smtp, 'frida@lind.test')).toHaveLength(3);
    expect(problems).toEqual([]);
    expect(party.problems).toEqual([]);
  }, 120_000);
});
