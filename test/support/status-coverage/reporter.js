// jest loads reporters with a plain require: the reporter itself is TypeScript, compiled by tsx.
const { require: requireTs } = require('tsx/cjs/api');

module.exports = requireTs('./reporter.ts', __filename);
