/** Markdown that tries every way into the page's scripts. */
export const HOSTILE_README = [
  '# Hostile',
  '',
  '<script src="/docs/swagger-ui-bundle.js"></script>',
  '',
  '<img src="/docs/favicon-16x16.png" onerror="window.hacked = 1" onload="window.hacked = 1">',
  '',
  'Inline <span onclick="window.hacked = 1">html</span> and <iframe src="/docs"></iframe>.',
  '',
  '[a](javascript:window.hacked=1) [b](JaVaScRiPt:x) [c](&#106;avascript:x) [d](javascript&colon;x) [e](data:text/html,<script>x</script>)',
  '',
  '![f](javascript:x) <javascript:x> [g](/a "t\\" onmouseover=\\"x")',
  '',
  '[docs](/docs) [web](https://example.com/a?b=1&c=2#d) [mail](mailto:fleet@example.com) [anchor](#use) [relative](guide.md)',
].join('\n');
