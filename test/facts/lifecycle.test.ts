import { describe, expect, it } from 'vitest';
import { lifecycleStatus } from '../../src/facts/lifecycle.js';

const at = (day: string): number => Date.parse(`${day}T12:00:00Z`);

describe('lifecycleStatus', () => {
  it('places a version in its minor phase on a day, each end date being the phase last day', () => {
    expect(lifecycleStatus('4.12.0-rc.8', at('2023-01-16'))!.phase).toBe('pre-release');
    expect(lifecycleStatus('4.12.3', at('2023-08-17'))!.phase).toBe('full-support');
    expect(lifecycleStatus('4.12.30', at('2023-08-18'))!.phase).toBe('maintenance');
    expect(lifecycleStatus('4.12.60', at('2024-07-18'))!.phase).toBe('extended-update-support');
    expect(lifecycleStatus('4.12.60', at('2025-01-18'))!.phase).toBe('end-of-life');
    // An odd minor has no EUS term: after maintenance it is at its end of life.
    expect(lifecycleStatus('4.13.10', at('2024-11-18'))).toMatchObject({ minor: '4.13', phase: 'end-of-life', eusEnds: undefined });
  });

  it('knows nothing of a minor its table does not list, nor of something that is no version', () => {
    expect(lifecycleStatus('4.99.0', at('2030-01-01'))).toBeUndefined();
    expect(lifecycleStatus('not-a-version', at('2024-01-01'))).toBeUndefined();
  });
});
