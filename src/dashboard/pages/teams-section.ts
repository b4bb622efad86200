import type { Organization, Team } from '../../client/index.js';
import { confirmButton } from '../confirm-button.js';
import type { Dashboard } from '../dashboard.js';
import { dataTable } from '../data-table.js';
import { errorBox, withErrorIn } from '../error-box.js';
import { when } from '../format.js';
import { h } from '../h.js';

/**
 * An organization's teams: the list, and for its admins create, rename and delete. The API says
 * the user's role in the organization (`role`); a plain member sees the list and why there are
 * no controls, since the API would refuse them (403). A refusal still shows beside its control.
 */
export async function teamsSection(
  dash: Dashboard,
  organizationId: string,
  role: Organization['role'],
): Promise<HTMLElement> {
  const admin = role === 'admin';
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
          : teamTable(dash, teams, admin ? reload : undefined),
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
    admin
      ? createForm(dash, organizationId, reload)
      : h(
          'p',
          { class: 'muted' },
          "You are a member of this organization: only the organization's admins can create, rename or delete its teams.",
        ),
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

/**
 * A one-field form for a team's name (create and rename share it): an optional heading that
 * names the form, the label, the field, the submit button and a live region where `submit`'s
 * error shows.
 */
function teamNameForm(
  field: { id: string; label: string; value?: string },
  button: string,
  submit: (name: string, form: HTMLFormElement) => Promise<void>,
  heading?: { id: string; text: string },
): HTMLFormElement {
  const slot = h('div', { 'aria-live': 'polite' });
  const input = { id: field.id, name: 'name', required: true, maxlength: '100', autocomplete: 'off' };
  const form = h(
    'form',
    heading ? { class: 'inline-form', 'aria-labelledby': heading.id } : { class: 'inline-form' },
    heading ? h('h3', { id: heading.id }, heading.text) : null,
    h(
      'div',
      { class: 'field' },
      h('label', { for: field.id }, field.label),
      h('input', field.value === undefined ? input : { ...input, value: field.value }),
    ),
    h('button', { type: 'submit' }, button),
    slot,
  ) as HTMLFormElement;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const name = String(new FormData(form).get('name') ?? '');
    void withErrorIn(slot, () => submit(name, form));
  });
  return form;
}

function createForm(dash: Dashboard, organizationId: string, reload: Reload): HTMLElement {
  return teamNameForm(
    { id: 't-new-name', label: 'Team name' },
    'Create team',
    async (name, form) => {
      const team = await dash.api().createTeam({ organization_id: organizationId, name });
      form.reset();
      await reload(`Team "${team.name}" created.`);
    },
    { id: 'h-create-team', text: 'Create a team' },
  );
}

/** The teams; with `reload` (an admin's view), each row has its Rename and Delete controls. */
function teamTable(dash: Dashboard, teams: Team[], reload: Reload | undefined): HTMLElement {
  const columns = reload ? ['Name', 'Created', 'Id', 'Actions'] : ['Name', 'Created', 'Id'];
  return dataTable(
    { class: 'keys', caption: 'Teams' },
    columns,
    teams.map((team) =>
      h(
        'tr',
        {},
        h('td', { 'data-label': 'Name' }, team.name),
        h('td', { 'data-label': 'Created' }, when(team.created_at)),
        h('td', { 'data-label': 'Id' }, h('code', {}, team.id)),
        reload ? h('td', {}, renameControl(dash, team, reload), ' ', deleteButton(dash, team, reload)) : null,
      ),
    ),
  );
}

/** Rename behind a disclosure (<details>: Enter or Space opens it), so the row stays short. */
function renameControl(dash: Dashboard, team: Team, reload: Reload): HTMLElement {
  const form = teamNameForm(
    { id: `t-rename-${team.id}`, label: `New name for ${team.name}`, value: team.name },
    'Save name',
    async (name) => {
      const renamed = await dash.api().renameTeam(team.id, name);
      await reload(`Team "${team.name}" renamed to "${renamed.name}".`, true);
    },
  );
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
