import MailComposer from 'nodemailer/lib/mail-composer'
import { describe, expect, it } from 'vitest'
import { composeAtOnce } from './compose-at-once.ts'
import { mailTemplates } from './templates.ts'
import { UNSUBSCRIBE_LINK, withUnsubscribeLink } from './unsubscribe-link.ts'

type Data = ConstructorParameters<typeof MailComposer>[0]

/** The tree nodemailer composes for these fields, the Date fixed so two writings can be compared. */
const tree = (data: Data) => new MailComposer({ date: new Date('2026-11-26T18:00:00Z'), ...data }).compile()

const names = [
  'Zoë',
  'Анна-Мария',
  '王小明',
  'José 🏡',
  "O'Brien",
  'Ελένη',
  'محمد',
  'there',
  `${'Long'.repeat(30)} Name`,
]

function thankYou(firstName: string, i: number): Data {
  const content = mailTemplates.guestThankYou(`guest${i}@example.com`, {
    firstName,
    address: i % 2 ? '12 Elm Street, Springfield' : 'ул. Ленина, 5 — 東京都港区',
    when: 'Sat 14 Nov, 1–3 pm',
    agent: i % 3 ? 'Jo Agent' : 'Дмитрий 🔑 Agent',
  })
  // As a guest mail goes out: its unsubscribe line and one-click headers, the link put in.
  const mail = withUnsubscribeLink(
    {
      textBody: `${content.text}\n\nDon't want these mails? Unsubscribe: ${UNSUBSCRIBE_LINK}`,
      htmlBody: content.html.replace('</div>', `<p><a href="${UNSUBSCRIBE_LINK}">Unsubscribe</a></p></div>`),
      headers: {
        'List-Unsubscribe': `<${UNSUBSCRIBE_LINK}>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
    },
    `https://porchlight.test/unsubscribe/${'Ab9_-'.repeat(30)}${i}`,
  )
  return {
    from: { name: i % 3 ? 'Jo Agent' : 'Дмитрий 🔑 Agent', address: 'no-reply@porchlight.test' },
    replyTo: 'jo@agent.example',
    to: content.to,
    subject: content.subject,
    text: mail.textBody,
    html: mail.htmlBody ?? undefined,
    headers: mail.headers ?? undefined,
    messageId: `<k${i}@porchlight.test>`,
    // As the mailer gives it: the mail's key (a UUID), or nodemailer's own random base without one.
    baseBoundary: i % 2 ? `0b7e9c1a-5d1f-4b7a-9c7e-${String(i).padStart(12, '0')}` : undefined,
  }
}

describe('composeAtOnce', () => {
  it('writes a thank-you exactly as nodemailer streams it, names in any script', async () => {
    for (const [i, name] of names.entries()) {
      const root = tree(thankYou(name, i))
      const atOnce = composeAtOnce(root)
      expect(atOnce, name).not.toBeNull()
      expect(atOnce?.toString(), name).toBe((await root.build()).toString())
    }
  })

  it('writes texts that need their lines broken, dots and spaces at line ends, and plain ASCII as it is', async () => {
    const texts = [
      'plain ascii only',
      `${'a'.repeat(200)}\n.leading dot\nspace at end \ntab at end\t\n\n`,
      `${'é'.repeat(5)} ${'x'.repeat(150)}= é\t`,
      'line one\r\nline two\rline three\n',
      '',
    ]
    for (const text of texts) {
      const data = { from: 'a@example.com', to: 'b@example.com', subject: 'Hi', text, messageId: '<x@h>' }
      const root = tree(data)
      expect(composeAtOnce(root)?.toString(), JSON.stringify(text)).toBe((await root.build()).toString())
      const withHtml = tree({ ...data, html: `<p>${text}</p>` })
      expect(composeAtOnce(withHtml)?.toString()).toBe((await withHtml.build()).toString())
    }
  })

  it('writes any mix of scripts, spaces, tabs, dots and line breaks as nodemailer streams it', async () => {
    // A seeded generator: the same texts on every run.
    let seed = 38
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return seed % n
    }
    const pieces = [
      'a',
      'word ',
      ' ',
      '\t',
      '\n',
      '\r\n',
      '.',
      '=',
      'é',
      'Ж',
      '東',
      '🏡',
      'x'.repeat(70),
      '-- ',
    ]
    let written = 0
    for (let i = 0; i < 300; i++) {
      const text = Array.from({ length: 1 + next(60) }, () => pieces[next(pieces.length)]).join('')
      const root = tree({ from: 'a@example.com', to: 'b@example.com', subject: text, text, html: text })
      const atOnce = composeAtOnce(root)
      if (atOnce === null) continue
      written++
      expect(atOnce.toString(), JSON.stringify(text)).toBe((await root.build()).toString())
    }
    // Most go the quick way (the rest are mostly non-Latin: base64, left to nodemailer).
    expect(written).toBeGreaterThan(150)
  })

  it('leaves attachments to nodemailer (it writes them in base64)', () => {
    const base = { from: 'a@example.com', to: 'b@example.com', subject: 'Hi', messageId: '<x@h>', text: 'hi' }
    const ics = tree({ ...base, attachments: [{ filename: 'visit é.ics', content: 'BEGIN:VCALENDAR\nX:é' }] })
    expect(composeAtOnce(ics)).toBeNull()
    expect(
      composeAtOnce(tree({ ...base, attachments: [{ filename: 'a.png', content: Buffer.from([1, 2]) }] })),
    ).toBeNull()
  })

  it('leaves to nodemailer a part it cannot write at once: base64, a raw part, a newline transform', () => {
    const base = { from: 'a@example.com', to: 'b@example.com', subject: 'Hi', messageId: '<x@h>' }
    // Mostly non-Latin text: nodemailer picks base64 for it.
    expect(composeAtOnce(tree({ ...base, text: '東京都港区'.repeat(40) }))).toBeNull()
    expect(composeAtOnce(tree({ ...base, text: 'hi', alternatives: [{ raw: 'X: y\r\n\r\nz' }] }))).toBeNull()
    expect(composeAtOnce(tree({ ...base, newline: 'unix', text: 'hi' }))).toBeNull()
  })
})
