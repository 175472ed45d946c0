import { parseQuery } from '../../src/http/query';

describe('the query parser Express is given', () => {
  it('when the URL has no query string (Express passes null), then the query has no parameters', () => {
    expect(parseQuery(null)).toEqual({});
  });

  it('when the query string is empty, then the query has no parameters', () => {
    expect(parseQuery('')).toEqual({});
  });

  it('when the query string names parameters and a filter, then each stays text and only the filter nests', () => {
    expect(parseQuery('limit=5&fields[0]=1&filter[status][eq]=idle')).toEqual({ limit: '5', 'fields[0]': '1', filter: { status: { eq: 'idle' } } });
  });
});
