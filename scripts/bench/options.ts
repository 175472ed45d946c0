/** The bench scripts' options: `--name=value` flags, else an environment variable, else a default. */
export function optionReader(argv: string[], env: NodeJS.ProcessEnv) {
  const flag = (name: string): string | undefined => argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  const numberOf = (name: string, envName: string, fallback: number, min = 1): number => {
    const raw = flag(name) ?? env[envName];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < min) throw new Error(`--${name} / ${envName} must be a number of at least ${min} (got "${raw}")`);
    return value;
  };
  return { flag, numberOf };
}
