import { describeFailure } from './api-client.js';
import type { SavedSkill } from './api-types.js';
import { h, plural } from './dom.js';

/** Saves a task as a skill: `POST /api/tasks/:taskId/skill {name}`, resolving with the saved skill. */
export type SaveTaskAsSkill = (taskId: string, name: string) => Promise<SavedSkill>;

/**
 * "Save as skill" on a completed task: the button opens an inline form asking for the skill's name;
 * Save sends it, then the saved skill's name, step count and location show, or the gateway's problem
 * (`SKILL_EXISTS`, `TASK_STATE_CONFLICT`, `VALIDATION_FAILED`, …) as text and the form stays open to
 * try another name. The elements are made once and kept across the task view's renders, so focus and
 * what was typed survive streamed events.
 */
export class SaveSkillForm {
  readonly element: HTMLElement;
  private readonly openButton = h('button', { type: 'button', class: 'save-skill-open' }, 'Save as skill');
  private readonly nameInput = h('input', { id: 'skill-name', name: 'name', required: true, maxlength: 64, autocomplete: 'off', spellcheck: 'false', placeholder: 'e.g. book-table' });
  private readonly saveButton = h('button', { type: 'submit', class: 'primary' }, 'Save');
  private readonly form: HTMLFormElement;
  private readonly result = h('p', { class: 'save-skill-result', role: 'status' });
  private taskId: string | undefined;
  private saving = false;

  constructor(private readonly save: SaveTaskAsSkill) {
    this.form = h(
      'form',
      { class: 'save-skill-form', hidden: true, 'aria-label': 'Save as skill' },
      h('label', { for: 'skill-name' }, 'Skill name'),
      this.nameInput,
      this.saveButton,
      h('button', { type: 'button', onclick: () => this.close() }, 'Cancel'),
    );
    this.element = h('div', { class: 'save-skill', hidden: true }, this.openButton, this.form, this.result);
    this.openButton.addEventListener('click', () => {
      this.form.hidden = false;
      this.openButton.hidden = true;
      this.nameInput.focus();
    });
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.submit();
    });
  }

  /** Shows the button for `taskId` when the task is `completed`, hides it otherwise; a new task starts afresh. */
  show(taskId: string, completed: boolean): void {
    if (taskId !== this.taskId) {
      this.taskId = taskId;
      this.close();
      this.say('', '');
    }
    this.element.hidden = !completed;
  }

  private close(): void {
    this.form.hidden = true;
    this.openButton.hidden = false;
  }

  private submit(): void {
    const taskId = this.taskId;
    const name = this.nameInput.value.trim();
    if (!taskId || !name || this.saving) return;
    this.saving = true;
    this.saveButton.disabled = true;
    this.say('pending', `Saving ${name}…`);
    this.save(taskId, name)
      .then(
        (skill) => {
          if (taskId !== this.taskId) return;
          this.close();
          this.say('ok', `Saved as skill ${skill.name} (${plural(skill.steps, 'step')}) at ${skill.location}.`);
        },
        (err: unknown) => {
          if (taskId !== this.taskId) return;
          this.say('error', `Not saved: ${describeFailure(err)}`);
        },
      )
      .finally(() => {
        this.saving = false;
        this.saveButton.disabled = false;
      });
  }

  private say(outcome: 'pending' | 'ok' | 'error' | '', text: string): void {
    this.result.dataset['outcome'] = outcome;
    this.result.textContent = text;
  }
}
