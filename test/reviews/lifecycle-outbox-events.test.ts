import { describe, expect, it } from 'vitest';
import { act, create, eventsOf, get, h, prUrl, t, useLifecycleApp } from './lifecycle-harness.js';

describe('review lifecycle', () => {
  useLifecycleApp();

  describe('outbox events', () => {
    const base = (id: string, status: string, number: number) => ({
      review_id: id,
      status,
      repository: { id: `test:${h.owner}/shop`, name: `${h.owner}/shop`, provider: 'github' },
      pull_request: { number, title: `Test pull request #${number}`, url: prUrl(h, number) },
      review_url: `${t.config.publicUrl}/v1/reviews/${id}`,
    });

    it('create with auto_review records review.created, review.started, review.in_progress in order', async () => {
      const { id } = await create(h, 2);
      const events = await eventsOf(h, id);
      expect(events.map((e) => e.type)).toEqual(['review.created', 'review.started', 'review.in_progress']);
      for (const e of events) {
        expect(e).toMatchObject({ mode: 'test', user_id: h.userId, review_id: id });
        expect(e.id).toMatch(/^evt_/);
        expect(e.data).toEqual(base(id, 'in_progress', 2));
      }
      await t.runJobs();
    });

    it('create with auto_review false records only review.created; start adds started and in_progress', async () => {
      const { id } = await create(h, 1, { auto_review: false });
      expect((await eventsOf(h, id)).map((e) => [e.type, e.data])).toEqual([
        ['review.created', base(id, 'pending', 1)],
      ]);
      await act(h, id, 'start');
      expect((await eventsOf(h, id)).map((e) => e.type)).toEqual([
        'review.created',
        'review.started',
        'review.in_progress',
      ]);
      await t.runJobs();
    });

    it('completion of #2 records review.completed with exactly the decided data, and one security.alert', async () => {
      const { id } = await create(h, 2);
      await t.runJobs();
      const events = await eventsOf(h, id);
      expect(events.map((e) => e.type)).toEqual([
        'review.created',
        'review.started',
        'review.in_progress',
        'review.completed',
        'security.alert',
      ]);
      expect(events.every((e) => e.mode === 'test')).toBe(true);
      expect(events[3]?.data).toEqual({
        ...base(id, 'completed', 2),
        summary: { status: 'changes_requested', issues_found: 2, critical: 1, high: 1, medium: 0, low: 0 },
      });
      const comments = (await get(h, `/v1/reviews/${id}/comments`)).json().data as {
        id: string;
        type: string;
        severity: string;
        file: string;
        line: number;
        message: string;
        suggestion?: string;
      }[];
      const security = comments.find((c) => c.type === 'security');
      expect(security).toMatchObject({ severity: 'critical' });
      expect(events[4]?.data).toEqual({
        alert_id: security?.id,
        severity: 'critical',
        type: expect.any(String),
        repository: { id: `test:${h.owner}/shop`, name: `${h.owner}/shop` },
        file: security?.file,
        line: security?.line,
        description: security?.message,
        recommendation: expect.any(String),
        cwe: 'CWE-89',
        cvss_score: expect.any(Number),
      });
      // The test catalog's SQL injection: CVSS 9.8 (stored as real, read back exactly).
      expect(events[4]?.data).toMatchObject({ type: 'js.sql-injection', cvss_score: 9.8 });
    });

    it('completion of #1 records review.completed with status approved and no alert', async () => {
      const { id } = await create(h, 1);
      await t.runJobs();
      const events = await eventsOf(h, id);
      expect(events.map((e) => e.type)).toEqual([
        'review.created',
        'review.started',
        'review.in_progress',
        'review.completed',
      ]);
      expect(events[3]?.data).toEqual({
        ...base(id, 'completed', 1),
        summary: { status: 'approved', issues_found: 0, critical: 0, high: 0, medium: 0, low: 0 },
      });
    });

    it('cancel records review.cancelled', async () => {
      const { id } = await create(h, 1);
      await act(h, id, 'cancel');
      const events = await eventsOf(h, id);
      expect(events.map((e) => e.type)).toEqual([
        'review.created',
        'review.started',
        'review.in_progress',
        'review.cancelled',
      ]);
      expect(events[3]).toMatchObject({ mode: 'test', data: base(id, 'cancelled', 1) });
      await t.runJobs();
      expect((await eventsOf(h, id)).length).toBe(4);
    });

    it('failure records review.failed with error { code, message }; retry records started and in_progress again', async () => {
      const { id } = await create(h, 3);
      await t.runJobs();
      const events = await eventsOf(h, id);
      expect(events.map((e) => e.type)).toEqual([
        'review.created',
        'review.started',
        'review.in_progress',
        'review.failed',
      ]);
      const review = (await get(h, `/v1/reviews/${id}`)).json().data;
      expect(review.error).toEqual({ code: 'test_failure', message: expect.any(String) });
      expect(events[3]).toMatchObject({ mode: 'test' });
      expect(events[3]?.data).toEqual({
        ...base(id, 'failed', 3),
        error: { code: 'test_failure', message: review.error.message },
      });
      await act(h, id, 'retry');
      await t.runJobs();
      expect((await eventsOf(h, id)).map((e) => e.type).slice(4)).toEqual([
        'review.started',
        'review.in_progress',
        'review.failed',
      ]);
    });
  });
});
