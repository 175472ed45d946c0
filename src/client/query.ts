/**
 * Query parameters as the API reads them: arrays comma-separated (`fields=name,status`, form style
 * without explode) and objects as `filter[field][op]=value` (deepObject, two levels), which
 * openapi-fetch's default serialiser does not write.
 */
export function serializeQuery(query: Record<string, unknown>): string {
  const parts: string[] = [];
  const add = (key: string, value: unknown): void => {
    if (value === undefined || value === null) return;
    if (Array.isArray(value)) {
      parts.push(`${key}=${value.map((item) => encodeURIComponent(String(item))).join(',')}`);
    } else if (typeof value === 'object') {
      for (const [name, inner] of Object.entries(value)) add(`${key}[${encodeURIComponent(name)}]`, inner);
    } else {
      parts.push(`${key}=${encodeURIComponent(String(value))}`);
    }
  };
  for (const [name, value] of Object.entries(query)) add(encodeURIComponent(name), value);
  return parts.join('&');
}
