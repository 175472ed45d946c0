import { ifMatch, versionTag } from '../../src/http/caching';

describe('versionTag', () => {
  const id = '01a21894-7dc3-7548-acaf-2c9d0f35cdb7';
  const other = '01a21894-7dc3-7548-acaf-2c9d0f35cdb8';
  const at = '2026-11-26T15:58:34.435Z';
  const later = '2026-11-26T15:58:34.436Z';

  it('when the same version is tagged twice, then the tag is the same strong tag, of the characters an entity tag may hold (RFC 9110)', () => {
    expect(versionTag({ id, updated_at: at })).toBe(versionTag({ id, updated_at: at }));
    expect(versionTag({ id, updated_at: at })).toMatch(/^"[\x21\x23-\x7e]+"$/);
  });

  it('when an item changes a millisecond later, or another item has the same time, then the tags differ', () => {
    const tags = new Set([versionTag({ id, updated_at: at }), versionTag({ id, updated_at: later }), versionTag({ id: other, updated_at: at })]);
    expect(tags.size).toBe(3);
  });

  it('when If-Match names the current version (among others), then it holds; an older version does not', () => {
    const current = { id, updated_at: later };
    expect(ifMatch(`"x", ${versionTag(current)}`)!(current)).toBe(true);
    expect(ifMatch(versionTag({ id, updated_at: at }))!(current)).toBe(false);
    expect(ifMatch('*')!(current)).toBe(true);
  });
});
