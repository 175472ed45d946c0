import type { Page } from 'playwright-core';
import { CLEAN_REPORT, describeInBrowser } from '../support/browser';
import { scrollsSideways, textOf, useConsoleWorld, WIDTHS } from '../support/console';
import type { SignedInUser } from '../support/harness';

/** Each test opens browser contexts and waits for real reads: more than jest's default on a busy machine. */
const SLOW_MS = 90_000;

type Member = { user_id: string; role: string };

describeInBrowser('sharing a fleet in the console in Chromium: the switcher, the members page, invitations, controls by role, the feed naming who did what', () => {
  const world = useConsoleWorld('sqlite');

  /** A shared workspace of `owner`, with `members` joined by invitations accepted through the API. */
  async function team(owner: SignedInUser, name: string, members: Array<[SignedInUser, string]>): Promise<{ id: string; name: string }> {
    const workspace = (await owner.http.post('/api/v1/workspaces').send({ name }).expect(201)).body.data;
    for (const [member, role] of members) {
      const { token } = (await owner.http.post(`/api/v1/workspaces/${workspace.id}/invitations`).send({ email: member.user.email, role }).expect(201)).body.data;
      await member.http.post('/api/v1/invitations/accept').send({ token }).expect(200);
    }
    return workspace;
  }
  /** Waits until `holds` answers true (at most 10 s). */
  const until = async (holds: () => Promise<boolean>) => {
    for (let tries = 0; tries < 100; tries += 1) {
      if (await holds()) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('it never held');
  };
  const membersOf = async (user: SignedInUser, workspaceId: string): Promise<Member[]> => (await user.http.get(`/api/v1/workspaces/${workspaceId}/members`).expect(200)).body.data;
  /** Presses Tab until the focused element's accessible label or text begins with `name` (at most 60 times); fails otherwise. */
  const tabTo = async (page: Page, name: string) => {
    for (let presses = 0; presses < 60; presses += 1) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent ?? '');
      if (focused.startsWith(name)) return;
    }
    throw new Error(`Tab never reached “${name}”`);
  };

  for (const [width, viewport] of Object.entries(WIDTHS)) {
    it(
      `when an owner invites by the members page at ${width} width, by keyboard, then the link is shown once and the invited person joins with it in the console`,
      async () => {
        const owner = await world.testApp.signUp();
        const invited = await world.testApp.signUp();
        const workspace = await team(owner, `Invites ${width}`, []);
        const { page, report } = await world.openConsole(await world.signedIn(owner, viewport), `#/workspaces/${workspace.id}`);
        expect(await textOf(page.locator('h1'))).toBe(`Invites ${width}`);
        expect(await textOf(page.locator('.members tbody'))).toContain('owner');

        await page.getByLabel('E-mail').focus();
        await page.keyboard.type(invited.user.email);
        await page.locator('form[aria-labelledby="invite-title"] select').selectOption('operator');
        await tabTo(page, 'Invite');
        await page.keyboard.press('Enter');
        const link = await page.getByLabel('Invitation link').inputValue();
        expect(link).toMatch(new RegExp(`^${world.origin}/#/join/afi_[A-Za-z0-9_-]{43}$`));
        // Shown once: Done takes it away, and nothing in the page's storage keeps it.
        await page.getByRole('button', { name: 'Done' }).press('Enter');
        await expect(page.getByLabel('Invitation link').count()).resolves.toBe(0);
        expect(await page.evaluate(() => JSON.stringify({ ...window.localStorage }) + JSON.stringify({ ...window.sessionStorage }))).not.toContain('afi_');
        expect(await textOf(page.locator('.invitations'))).toContain(`${invited.user.email} as operator`);
        expect(await scrollsSideways(page)).toBe(false);
        expect(report).toEqual(CLEAN_REPORT);

        const joining = await world.openConsole(await world.signedIn(invited, viewport), link.slice(world.origin.length + 1));
        await joining.page.getByRole('button', { name: 'Join the workspace' }).press('Enter');
        await joining.page.waitForFunction((id) => window.location.hash === `#/workspaces/${id}`, workspace.id);
        expect(await textOf(joining.page.locator('.summary'))).toBe('Your role: operator');
        expect((await membersOf(owner, workspace.id)).find((member) => member.user_id === invited.user.id)?.role).toBe('operator');
        expect(joining.report).toEqual(CLEAN_REPORT);
      },
      SLOW_MS,
    );
  }

  it(
    'when an operator and a viewer open the same agent, then the operator sees the controls to change it and the viewer none, and the service agrees',
    async () => {
      const owner = await world.testApp.signUp();
      const operator = await world.testApp.signUp();
      const viewer = await world.testApp.signUp();
      const workspace = await team(owner, 'Roles', [
        [operator, 'operator'],
        [viewer, 'viewer'],
      ]);
      const agent = (await owner.http.post('/api/v1/agents').send({ name: 'shared agent', type: 'type_a', workspace_id: workspace.id }).expect(201)).body.data;
      await owner.http.post(`/api/v1/agents/${agent.id}/tasks`).send({ title: 'queued work' }).expect(201);
      for (const [who, operates] of [
        [operator, true],
        [viewer, false],
      ] as const) {
        for (const viewport of Object.values(WIDTHS)) {
          const { page, report } = await world.openConsole(await world.signedIn(who, viewport), `#/agents/${agent.id}`);
          expect(await textOf(page.locator('h1'))).toBe('shared agent');
          await page.getByRole('link', { name: 'queued work', exact: true }).waitFor();
          const controls = {
            newTask: await page.locator('#new-task-title').count(),
            newKey: await page.locator('#new-key-title').count(),
            newSchedule: await page.getByRole('button', { name: 'New schedule' }).count(),
            concurrency: await page.getByRole('button', { name: 'Change max concurrency' }).count(),
          };
          expect(controls).toEqual(operates ? { newTask: 1, newKey: 1, newSchedule: 1, concurrency: 1 } : { newTask: 0, newKey: 0, newSchedule: 0, concurrency: 0 });
          expect(await scrollsSideways(page)).toBe(false);
          expect(report).toEqual(CLEAN_REPORT);
        }
      }
      // What the console hides, the service refuses.
      await viewer.http.post(`/api/v1/agents/${agent.id}/tasks`).send({ title: 'no' }).expect(403);
      await operator.http.post(`/api/v1/agents/${agent.id}/tasks`).send({ title: 'yes' }).expect(201);
    },
    SLOW_MS,
  );

  it(
    'when the switcher picks a workspace, then the fleet shows its agents only, and a viewer there is offered no "Add agent"',
    async () => {
      const owner = await world.testApp.signUp();
      const viewer = await world.testApp.signUp();
      const workspace = await team(owner, 'Switched', [[viewer, 'viewer']]);
      await owner.http.post('/api/v1/agents').send({ name: 'team agent', type: 'type_a', workspace_id: workspace.id }).expect(201);
      await viewer.http.post('/api/v1/agents').send({ name: 'my own agent', type: 'type_b' }).expect(201);
      const { page, report } = await world.openConsole(await world.signedIn(viewer, WIDTHS.phone));
      const names = async () => (await page.locator('.agent-name').allInnerTexts()).sort();
      await page.locator('.agent-name').nth(1).waitFor();
      expect(await names()).toEqual(['my own agent', 'team agent']);
      await page.getByLabel('Workspace').selectOption({ label: 'Switched · viewer' });
      await page.waitForFunction(() => document.querySelectorAll('.agent-name').length === 1);
      expect(await names()).toEqual(['team agent']);
      expect(await page.locator('#new-agent-title').count()).toBe(0);
      // The choice holds from view to view.
      const nav = page.getByRole('navigation', { name: 'Console' });
      await nav.getByRole('link', { name: 'Events' }).click();
      await nav.getByRole('link', { name: 'Fleet' }).click();
      await page.waitForFunction(() => document.querySelectorAll('.agent-name').length === 1);
      expect(await names()).toEqual(['team agent']);
      expect(await scrollsSideways(page)).toBe(false);
      expect(report).toEqual(CLEAN_REPORT);
    },
    SLOW_MS,
  );

  it(
    'when a member is promoted and another removed, then the event feed names who did what',
    async () => {
      const owner = await world.testApp.signUp();
      const member = await world.testApp.signUp();
      const leaver = await world.testApp.signUp();
      const workspace = await team(owner, 'Watched', [
        [member, 'viewer'],
        [leaver, 'viewer'],
      ]);
      const { page, report } = await world.openConsole(await world.signedIn(owner, WIDTHS.laptop), `#/workspaces/${workspace.id}`);
      await page.getByLabel(`Role of ${member.user.name}`).selectOption('operator');
      await until(async () => (await membersOf(owner, workspace.id)).find((each) => each.user_id === member.user.id)?.role === 'operator');
      await page.getByRole('button', { name: `Remove: ${leaver.user.name}` }).click();
      await page.getByRole('button', { name: `Confirm remove: ${leaver.user.name}` }).click();
      await page.waitForFunction((name) => !document.querySelector('.members')?.textContent?.includes(name), leaver.user.name);
      await page.goto(`${world.origin}/#/events`);
      await page.locator('.event-row').first().waitFor();
      const feed = await textOf(page.locator('.feed'));
      expect(feed).toContain(`${member.user.name}: viewer → operator`);
      expect(feed).toContain(`${leaver.user.name} removed (was viewer)`);
      expect(feed).toContain('by you');
      expect(report).toEqual(CLEAN_REPORT);
    },
    SLOW_MS,
  );
});
