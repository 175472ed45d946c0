// The same program on a client orval generated from api.yaml (its fetch client, base URL set when generated).
import { createAgentV1, getAgentV1, listAgentsV1 } from './orval/api';
import { lengthsOf } from './read-required';

async function main(): Promise<void> {
  const [, apiKey = '', suffix = ''] = process.argv.slice(2);
  const init = { headers: { 'X-API-Key': apiKey } };
  for (const [name, type] of [[`${suffix}-a`, 'type_a'], [`${suffix}-b`, 'type_b'], [`${suffix}-c`, 'type_b'], [`${suffix}-d`, 'type_b']] as const) {
    const created = await createAgentV1({ name, type }, init);
    if (created.status !== 201) throw new Error(`create answered ${created.status}`);
  }
  const listed = await listAgentsV1({ 'filter[type]': { eq: 'type_b' }, 'filter[name]': { gte: `${suffix}-b`, lte: `${suffix}-c` }, sort: 'name' }, init);
  if (listed.status !== 200) throw new Error(`list answered ${listed.status}`);
  const [first] = listed.data.data;
  if (first === undefined) throw new Error('the filter found nothing');
  const read = await getAgentV1(first.id, undefined, init);
  if (read.status !== 200) throw new Error(`read answered ${read.status}`);
  const agent = read.data.data;
  console.log(JSON.stringify({ names: listed.data.data.map((item) => item.name), read: { name: agent.name, type: agent.type, status: agent.status, owner: agent.owner_id } }));
}

void lengthsOf;
main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
