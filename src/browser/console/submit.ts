// A form's sending, the same in every form: busy while it runs (its button disabled), and a
// failure told in the service's own words: as a whole, and field by field when it named fields.
import { useState } from 'preact/hooks';
import { fieldProblemsOf, messageOf } from '../api';

export interface Submission {
  busy: boolean;
  problem: string | undefined;
  /** What the service said of each field it refused (by dotted name), for the form to show beside each. */
  fields: Readonly<Record<string, string>>;
  /** Says what is wrong before anything is sent (input the form itself refuses). */
  refuse: (problem: string | undefined) => void;
  /** Runs `send`; a failure shows as the problem (`failed` when the service said nothing usable). */
  run: (send: () => Promise<void>) => Promise<void>;
}

const NO_FIELDS: Readonly<Record<string, string>> = {};

export function useSubmission(failed: string): Submission {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [fields, setFields] = useState<Readonly<Record<string, string>>>(NO_FIELDS);
  const run = async (send: () => Promise<void>) => {
    setBusy(true);
    setProblem(undefined);
    setFields(NO_FIELDS);
    try {
      await send();
    } catch (failure) {
      setProblem(messageOf(failure, failed));
      setFields(fieldProblemsOf(failure));
    } finally {
      setBusy(false);
    }
  };
  const refuse = (said: string | undefined) => {
    setProblem(said);
    setFields(NO_FIELDS);
  };
  return { busy, problem, fields, refuse, run };
}
