import type { Team } from '../../client/index.js';
import { confirmButton } from '../confirm-button.js';
import type { Dashboard } from '../dashboard.js';
import { errorBox, withErrorIn } from '../error-box.js';
import { when } from '../format.js';
import { h } from '../h.js';

/**
 * An organization's teams: the list, create, rename, delete. The API does not say whether the
 * user is an admin of the organization, so the controls are shown to every member and a refused
 * change shows the API's own 403 message beside the control that made it.
 */
export async function teamsSection(dash: Dashboard, organizationId: string): Promise<HTMLElement> {
  const heading = h('h2', { id: 'h-teams', tabindex: '-1' }, 'Teams');
  const status = h('p', { role: 'status', class: 'muted' });
  const listSlot = h('div', {});
  /** Reads the list again; `said` is announced, and focus goes to the heading when the control that acted is gone. */
  const reload = async (said?: string, refocus = false) => {
    try {
      const teams = await allTeams(dash, organizationId);
      listSlot.replaceChildren(
        teams.length === 0
          ? h(
              'p',
              { class: 'empty' },
              'No teams yet. A team groups reviews: a review made with its team_id is listed under it.',
            )
          : teamTable(dash, teams, reload),
      );
    } catch (error) {
      listSlot.replaceChildren(errorBox(error));
    }
    if (said !== undefined) status.textContent = said;
    if (refocus) heading.focus();
  };
  await reload();
  return h(
    'section',
    { 'aria-labelledby': 'h-teams' },
    heading,
    h(
      'p',
      { class: 'muted' },
      "Only the organization's admins may create, rename or delete teams; for anyone else the API refuses, and its message shows here.",
    ),
    createForm(dash, organizationId, reload),
    status,
    listSlot,
  );
}

/** Every team of the organization, page after page (100 a page). */
async function allTeams(dash: Dashboard, organizationId: string): Promise<Team[]> {
  const teams: Team[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await dash
      .api()
      .listTeams({ organization_id: organizationId, limit: 100, ...(after ? { after } : {}) });
    teams.push(...page.data);
    const next = page.pagination.next_cursor;
    if (!page.pagination.has_more || !next || next === after) return teams;
    after = next;
  }
}

type Reload = (said?: string, refocus?: boolean) => Promise<void>;

function createForm(dash: Dashboard, organizationId: string, reload: Reload): HTMLElement {
  const slot = h('div', { 'aria-live': 'polite' });
  const form = h(
    'form',
    { class: 'inline-form', 'aria-labelledby': 'h-create-team' },
    h('h3', { id: 'h-create-team' }, 'Create a team'),
    h(
      'div',
      { class: 'field' },
      h('label', { for: 't-new-name' }, 'Team name'),
      h('input', { id: 't-new-name', name: 'name', required: true, maxlength: '100', autocomplete: 'off' }),
    ),
    h('button', { type: 'submit' }, 'Create team'),
    slot,
  ) as HTMLFormElement;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const name = String(new FormData(form).get('name') ?? '');
    void withErrorIn(slot, async () => {
      const team = await dash.api().createTeam({ organization_id: organizationId, name });
      form.reset();
      await reload(`Team "${team.name}" created.`);
    });
  });
  return form;
}

function teamTable(dash: Dashboard, teams: Team[], reload: Reload): HTMLElement {
  return h(
    'table',
    { class: 'keys' },
    h('caption', { class: 'visually-hidden' }, 'Teams'),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ['Name', 'Created', 'Id', 'Actions'].map((c) => h('th', { scope: 'col' }, c)),
      ),
    ),
    h(
      'tbody',
      {},
      teams.map((team) =>
        h(
          'tr',
          {},
          h('td', { 'data-label': 'Name' }, team.name),
          h('td', { 'data-label': 'Created' }, when(team.created_at)),
          h('td', { 'data-label': 'Id' }, h('code', {}, team.id)),
          h('td', {}, renameControl(dash, team, reload), ' ', deleteButton(dash, team, reload)),
        ),
      ),
    ),
  );
}

/** Rename behind a disclosure (<details>: Enter or Space opens it), so the row stays short. */
function renameControl(dash: Dashboard, team: Team, reload: Reload): HTMLElement {
  const inputId = `t-rename-${team.id}`;
  const slot = h('div', { 'aria-live': 'polite' });
  const form = h(
    'form',
    { class: 'inline-form' },
    h(
      'div',
      { class: 'field' },
      h('label', { for: inputId }, `New name for ${team.name}`),
      h('input', {
        id: inputId,
        name: 'name',
        required: true,
        maxlength: '100',
        value: team.name,
        autocomplete: 'off',
      }),
    ),
    h('button', { type: 'submit' }, 'Save name'),
    slot,
  ) as HTMLFormElement;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const name = String(new FormData(form).get('name') ?? '');
    void withErrorIn(slot, async () => {
      const renamed = await dash.api().renameTeam(team.id, name);
      await reload(`Team "${team.name}" renamed to "${renamed.name}".`, true);
    });
  });
  return h(
    'details',
    { class: 'rename' },
    h('summary', {}, 'Rename', h('span', { class: 'visually-hidden' }, ` ${team.name}`)),
    form,
  );
}

/** Deleting asks first (confirm-button.ts). */
function deleteButton(dash: Dashboard, team: Team, reload: Reload): HTMLElement {
  return confirmButton({
    id: `h-delete-${team.id}`,
    title: `Delete the team "${team.name}"?`,
    consequence: 'The team leaves the organization; its reviews stay, without a team. This cannot be undone.',
    opener: ['Delete', h('span', { class: 'visually-hidden' }, ` ${team.name}`)],
    openerClass: 'danger',
    confirm: 'Delete team',
    act: async () => {
      await dash.api().deleteTeam(team.id);
      // Not awaited: the dialog closes first, then the list (without this row) takes focus to its heading.
      void reload(`Team "${team.name}" deleted.`, true);
    },
  });
}
