import { describe, expect, it } from 'vitest';
import { turnBudget } from '../../src/common/turn-budget.js';

/** Whether a callback queued with setImmediate before `work` ran before `work` ended. */
async function turnCameDuring(work: () => Promise<void>): Promise<boolean> {
  let turned = false;
  setImmediate(() => {
    turned = true;
  });
  await work();
  return turned;
}

describe('turnBudget', () => {
  it('resolves pauses without a turn while the run is within its budget', async () => {
    // A minute: 100 pauses take far less, so the run never spends it.
    const pause = turnBudget(60_000);
    expect(
      await turnCameDuring(async () => {
        for (let i = 0; i < 100; i++) await pause();
      }),
    ).toBe(false);
  });

  it('waits for a turn at the first pause after the budget is spent, and not at the first of a run', async () => {
    const pause = turnBudget(0);
    // The first pause of a run starts it: no wait.
    expect(await turnCameDuring(() => pause())).toBe(false);
    // The second finds the budget of 0 spent (time has moved on): it waits for the turn.
    expect(await turnCameDuring(() => pause())).toBe(true);
    // That turn ended the run: the next pause starts a new one, without waiting.
    expect(await turnCameDuring(() => pause())).toBe(false);
  });

  it('a turn the loop takes on its own also ends the run', async () => {
    const pause = turnBudget(0);
    await pause();
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(await turnCameDuring(() => pause())).toBe(false);
  });
});
