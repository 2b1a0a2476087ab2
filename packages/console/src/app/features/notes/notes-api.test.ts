import { describe, expect, it } from 'vitest';
import { activityQuery } from '../activity/activity-api';
import { messageHtml } from './notes-api';

describe('messageHtml', () => {
  it('turns typed text into paragraphs with bold, italic, links and mentions, escaping the rest', () => {
    expect(
      messageHtml(
        'Call **now** _please_ @ada@example.com\nsee https://x.test/a?b=1\n\n<script>x</script>',
      ),
    ).toBe(
      '<p>Call <strong>now</strong> <em>please</em> <strong class="mention">@ada@example.com</strong><br>see <a href="https://x.test/a?b=1" rel="noopener noreferrer">https://x.test/a?b=1</a></p><p>&lt;script&gt;x&lt;/script&gt;</p>',
    );
  });
});

describe('activityQuery', () => {
  it('keeps the filters given, with the date range as createdAt bounds', () => {
    expect(
      activityQuery(
        { userEmail: ' a@b.c ', action: 'update', from: '2026-01-01T00:00:00.000Z', teamName: '' },
        { limit: '50' },
      ),
    ).toBe('userEmail=a%40b.c&action=update&createdAt.gte=2026-01-01T00%3A00%3A00.000Z&limit=50');
  });
});
