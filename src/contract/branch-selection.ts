type Schema = Record<string, unknown>;

/**
 * A `oneOf` whose branches are told apart by one property's `const` (at most one branch declares no
 * such property and refuses it) is validated as the chain of `if`/`then` it means: the branch the
 * body's value selects, or the branch without it, or a refusal that names the values allowed. The
 * same bodies pass and fail; what changes is what a failure says. A plain `oneOf` reports every
 * branch's complaints (a lease PATCH `{"status":"failed","error":{}}` got eight, the one that
 * applied seventh); this one reports the selected branch's. Generators keep reading the `oneOf`.
 */
export function selectBranchesByConst(schemas: Record<string, Schema>): void {
  const resolve = (branch: Schema) => (typeof branch.$ref === 'string' ? schemas[branch.$ref.replace('#/components/schemas/', '')] : branch);
  for (const [name, schema] of Object.entries(schemas)) {
    const branches = Array.isArray(schema.oneOf) ? (schema.oneOf as Schema[]) : undefined;
    if (!branches || branches.length < 2) continue;
    const resolved = branches.map(resolve);
    if (resolved.some((branch) => branch === undefined || branch.type !== 'object')) continue;
    const selector = selectorOf(resolved as Schema[]);
    if (!selector) continue;
    const { property, values, open } = selector;
    let chain: Schema = {
      properties: { [property]: { enum: values.map(({ value }) => value) } },
      required: [property],
    };
    for (const { value, index } of [...values].reverse()) {
      chain = { if: { properties: { [property]: { const: value } } }, then: branches[index], else: chain };
    }
    const { oneOf: _oneOf, ...rest } = schema;
    schemas[name] = open === undefined ? { ...rest, ...chain } : { ...rest, if: { required: [property] }, then: chain, else: branches[open] };
  }
}

/** The property whose `const` tells a oneOf's branches apart, its value in each, and the branch without it. */
function selectorOf(branches: Schema[]): { property: string; values: Array<{ value: unknown; index: number }>; open: number | undefined } | undefined {
  // At most one branch lacks the property: one of the first two declares it.
  const candidates = Object.keys((branches[0]?.properties as Schema | undefined) ?? {}).concat(Object.keys((branches[1]?.properties as Schema | undefined) ?? {}));
  for (const property of new Set(candidates)) {
    const values: Array<{ value: unknown; index: number }> = [];
    let open: number | undefined;
    let fits = true;
    branches.forEach((branch, index) => {
      const declared = (branch.properties as Record<string, Schema | undefined> | undefined)?.[property];
      const required = Array.isArray(branch.required) && branch.required.includes(property);
      if (declared && 'const' in declared && required) values.push({ value: declared.const, index });
      else if (!declared && branch.additionalProperties === false && open === undefined) open = index;
      else fits = false;
    });
    const distinct = new Set(values.map(({ value }) => JSON.stringify(value))).size === values.length;
    if (fits && distinct && values.length >= 1) return { property, values, open };
  }
  return undefined;
}
