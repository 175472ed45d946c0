// A form's sending, the same in every form: busy while it runs (its button disabled), and a
// failure told in the service's own words.
import { useState } from 'preact/hooks';
import { messageOf } from '../api';

export interface Submission {
  busy: boolean;
  problem: string | undefined;
  /** Says what is wrong before anything is sent (input the form itself refuses). */
  refuse: (problem: string | undefined) => void;
  /** Runs `send`; a failure shows as the problem (`failed` when the service said nothing usable). */
  run: (send: () => Promise<void>) => Promise<void>;
}

export function useSubmission(failed: string): Submission {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const run = async (send: () => Promise<void>) => {
    setBusy(true);
    setProblem(undefined);
    try {
      await send();
    } catch (failure) {
      setProblem(messageOf(failure, failed));
    } finally {
      setBusy(false);
    }
  };
  return { busy, problem, refuse: setProblem, run };
}
