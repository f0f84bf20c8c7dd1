import { describe, expect, it } from 'vitest'
import { escapeHtml } from './html.ts'
import { within } from './within.ts'

describe('within', () => {
  it('answers what the work answers in time', async () => {
    await expect(within(1000, Promise.resolve(7))).resolves.toBe(7)
  })

  it('gives up with its message when the work does not answer in time', async () => {
    await expect(within(10, new Promise(() => {}), 'Redis is not answering')).rejects.toThrow(
      'Redis is not answering',
    )
  })

  it('passes the work’s own failure on', async () => {
    await expect(within(1000, Promise.reject(new Error('refused')))).rejects.toThrow('refused')
  })
})

describe('escapeHtml', () => {
  it('leaves no markup and no way out of a quoted attribute', () => {
    expect(escapeHtml(`<a href="x" title='y'>Tom & Jerry</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;Tom &amp; Jerry&lt;/a&gt;',
    )
  })
})
