// A secret the service shows once (an agent key's, a webhook's signing secret): it lives only in
// the component that made it, never in storage or the URL, and is gone with "Done" or a reload.
import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef } from 'preact/hooks';
import { CopyButton } from './ui';

interface SecretOnceProps {
  /** The box's heading, which takes the focus when it appears. */
  title: string;
  /** The secret field's label. */
  label: string;
  secret: string;
  onDone: () => void;
  /** What the secret is for and how to use it. */
  children: ComponentChildren;
  /** The heading's level where the box sits (default 2). */
  level?: 2 | 3;
}

export function SecretOnce({ title, label, secret, onDone, children, level = 2 }: SecretOnceProps) {
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const Heading = level === 3 ? 'h3' : 'h2';
  return (
    <section class="secret-once" aria-labelledby={id}>
      <Heading id={id} tabIndex={-1} ref={heading}>
        {title}
      </Heading>
      {children}
      <label>
        {label}
        <input class="secret" readOnly value={secret} autocomplete="off" spellcheck={false} onFocus={(event) => event.currentTarget.select()} />
      </label>
      <div class="secret-actions">
        <CopyButton text={secret} label="Copy secret" />
        <button type="button" onClick={onDone}>
          Done
        </button>
      </div>
    </section>
  );
}
