// Every mail's words in one place: a subject, plain text and HTML built from the same lines.
import { FEEDBACK_RATING_FIELDS, type FeedbackRatingField, RATING_MAX, ratingLabel } from '@porchlight/shared'
import { escapeHtml } from '../lib/html.ts'
import { BRAND, htmlEnd, htmlStart } from './brand.ts'
import type { MailContent } from './queue-mail.ts'

type Ratings = Partial<Record<FeedbackRatingField, number | null>>

/** 'Curb Appeal: 5/5, Kitchen: 4/5': the ratings given, in form order, named as the screens name them. */
function ratingList(ratings: Ratings): string | null {
  const given = FEEDBACK_RATING_FIELDS.filter((f) => ratings[f] != null).map(
    (f) => `${ratingLabel(f)}: ${ratings[f]}/${RATING_MAX}`,
  )
  return given.length ? given.join(', ') : null
}

function layout(to: string, subject: string, paragraphs: string[], highlight?: string): MailContent {
  const text = [
    ...paragraphs.slice(0, 1),
    ...(highlight ? [highlight] : []),
    ...paragraphs.slice(1),
    '— Porchlight',
  ]
  const html = `${htmlStart(subject)}
<p>${escapeHtml(paragraphs[0] ?? '')}</p>
${highlight ? `<p style="font-size:1.5rem;font-weight:700;letter-spacing:.15em;color:${BRAND.accent}">${escapeHtml(highlight)}</p>` : ''}
${paragraphs
  .slice(1)
  .map((p) => `<p>${escapeHtml(p)}</p>`)
  .join('\n')}
<p style="color:${BRAND.muted}">— Porchlight</p>${htmlEnd}`
  return { to, subject, text: text.join('\n\n'), html }
}

/**
 * A visitor types its own first name, and this mail goes out from our sender: only a plain name is
 * repeated (letters with an apostrophe, hyphen or initials' dots, at most two words), never a sentence
 * or a link typed there; anything else is greeted as "there".
 */
export function plainFirstName(typed: string): string {
  const name = typed.trim().replace(/\s+/g, ' ')
  const word = "[\\p{L}\\p{M}][\\p{L}\\p{M}'’.-]*"
  const plain = name.length <= 40 && new RegExp(`^${word}( ${word})?$`, 'u').test(name)
  // Initials (J.R.) are a name; a dot before two letters (evil.example) is an address.
  return plain && !/\.\p{L}{2}/u.test(name) ? name : 'there'
}

export const mailTemplates = {
  /** The agent's webhook endpoint failed for three days and was turned off. */
  webhookEndpointDisabled(to: string, url: string, myStuffUrl: string): MailContent {
    return layout(to, 'Your Porchlight webhook endpoint was turned off', [
      `Porchlight stopped sending events to your webhook endpoint ${url}: every delivery to it has failed for three days.`,
      `Once the receiver answers again, open My Stuff → Integrations (${myStuffUrl}), replay a delivery or send a test event: a success turns the endpoint back on.`,
    ])
  },

  /** Follow Up Boss refused the agent's key: its leads wait until a new key is saved and Retry pressed. */
  fubKeyRejected(to: string, reason: string, integrationsUrl: string): MailContent {
    return layout(to, 'Follow Up Boss refused your API key', [
      `Follow Up Boss refused the API key Porchlight has for you (it said: ${reason}), so your open house sign-ins are not reaching it.`,
      'None is lost: they wait in Porchlight.',
      `Copy a new key from Follow Up Boss (Admin → API), save it in My Stuff → Integrations (${integrationsUrl}) and press Retry: every waiting lead is sent once.`,
    ])
  },

  verificationCode(to: string, code: string, validateUrl: string): MailContent {
    return layout(
      to,
      `Your Porchlight verification code: ${code}`,
      [
        'Welcome to Porchlight! Enter this code to validate your email Id:',
        `It expires in 15 minutes. You can also open ${validateUrl}`,
        "If you didn't sign up, you can ignore this mail.",
      ],
      code,
    )
  },

  emailChangeCode(to: string, code: string, settingsUrl: string): MailContent {
    return layout(
      to,
      `Your Porchlight code to confirm this email Id: ${code}`,
      [
        'Enter this code in Porchlight to sign in with this email Id from now on:',
        `It expires in 15 minutes. The page to enter it: ${settingsUrl}`,
        "If you didn't ask for this, you can ignore this mail; nothing changes.",
      ],
      code,
    )
  },

  emailChanged(to: string, newEmail: string): MailContent {
    return layout(to, 'Your Porchlight sign-in email was changed', [
      `The email Id you sign in to Porchlight with is now ${newEmail}; this address no longer signs in.`,
      'If you made this change, there is nothing to do.',
      'If you did not, someone who knows your password has your account: contact Porchlight support at once.',
    ])
  },

  temporaryPassword(to: string, password: string, signInUrl: string): MailContent {
    return layout(
      to,
      'Your Porchlight temporary password',
      [
        'Here is a temporary password for your Porchlight account:',
        `Sign in with it within one hour at ${signInUrl}; it works once, and you will then choose a new password.`,
        "Your current password keeps working. If you didn't ask for this, you can ignore this mail.",
      ],
      password,
    )
  },

  signInFailures(to: string, failures: number, appUrl: string): MailContent {
    return layout(to, 'Someone is trying to sign in to your Porchlight account', [
      `There were ${failures} sign-ins with a wrong password for your account within the last hour.`,
      'After repeated wrong passwords, sign-in with a password is paused for 15 minutes. To sign in now, ask for a temporary password: it is mailed only to you and works even while sign-in is paused.',
      `If it was not you, change your password at ${appUrl}/forgotPassword.`,
    ])
  },

  autoCloned(to: string, address: string, date: string, editUrl: string): MailContent {
    return layout(to, `Your open house at ${address} was scheduled again`, [
      `Your open house at ${address} has ended, and auto-clone scheduled the same open house for ${date}.`,
      `It is not offered to other agents yet: review and publish it at ${editUrl}`,
    ])
  },

  autoCloneFailed(to: string, address: string, reason: string): MailContent {
    return layout(to, `Your open house at ${address} was not scheduled again`, [
      `Your open house at ${address} has ended, but auto-clone could not schedule it for next week.`,
      reason,
    ])
  },

  hostingReport(
    to: string,
    r: {
      address: string
      when: string
      host: string
      attendees: number
      withoutRealtor: number
      feedback: { count: number; averages: Ratings; texts: string[] }
      csv: string
    },
  ): MailContent {
    const averages = ratingList(r.feedback.averages)
    return {
      ...layout(to, `Open house hosting report: ${r.address}`, [
        `${r.host} hosted your open house at ${r.address} (${r.when}).`,
        `Attendees: ${r.attendees}. Leads without a realtor: ${r.withoutRealtor}.`,
        `Feedback received: ${r.feedback.count}`,
        ...(averages ? [`Average ratings — ${averages}`] : []),
        ...r.feedback.texts.map((t) => `“${t}”`),
        'The attendees are attached as a CSV file.',
      ]),
      attachments: [{ filename: 'attendees.csv', content: r.csv, contentType: 'text/csv; charset=utf-8' }],
    }
  },

  captureReceipt(
    to: string,
    r: {
      address: string
      when: string
      signedIn: number
      devices: string
      offline: number
      /** For the listing agent: only the guests who agreed to share their details with it. */
      shared?: number
      csv: string | null
    },
  ): MailContent {
    const lines = [
      `Your open house at ${r.address} (${r.when}) has ended: ${r.signedIn} ${r.signedIn === 1 ? 'guest' : 'guests'} signed in.`,
      ...(r.devices ? [`Where they signed in: ${r.devices}.`] : []),
      ...(r.offline > 0
        ? [`${r.offline} signed in with no connection and were sent once the device was back online.`]
        : []),
      r.csv === null
        ? 'There is no attendee list to attach.'
        : r.shared === undefined
          ? 'The attendees are attached as a CSV file.'
          : `The ${r.shared} ${r.shared === 1 ? 'guest' : 'guests'} who agreed to share their details with you ${r.shared === 1 ? 'is' : 'are'} attached as a CSV file.`,
    ]
    return {
      ...layout(to, `Sign-ins at ${r.address}: ${r.signedIn}`, lines),
      ...(r.csv === null
        ? {}
        : {
            attachments: [
              { filename: 'attendees.csv', content: r.csv, contentType: 'text/csv; charset=utf-8' },
            ],
          }),
    }
  },

  reportRequest(to: string, r: { address: string; when: string; listing: string }): MailContent {
    return layout(to, `Please send the hosting report for ${r.address}`, [
      `${r.listing} asks for the hosting report of the open house you hosted at ${r.address} (${r.when}).`,
      'Open the open house in Porchlight and choose Send OH Report.',
    ])
  },

  attendeeReport(
    to: string,
    r: { address: string; when: string; attendees: number; csv: string },
  ): MailContent {
    return {
      ...layout(to, `Attendee report: ${r.address}`, [
        `The attendees of your open house at ${r.address} (${r.when}): ${r.attendees}.`,
        'They are attached as a CSV file.',
      ]),
      attachments: [{ filename: 'attendees.csv', content: r.csv, contentType: 'text/csv; charset=utf-8' }],
    }
  },

  teamInvitation(
    to: string,
    r: { firstName: string; address: string; when: string; listing: string; level: string; link: string },
  ): MailContent {
    return layout(to, `Open house to host: ${r.address}`, [
      `Hi ${r.firstName}, ${r.listing} offers your ${r.level} an open house to host at ${r.address} (${r.when}).`,
      `The first agent to claim it hosts it: ${r.link}`,
      'If someone was quicker, the page shows who claimed it.',
    ])
  },

  firmMembershipDecided(
    to: string,
    r: { firstName: string; firm: string; approved: boolean; by: string; link: string },
  ): MailContent {
    return r.approved
      ? layout(to, `You are a verified member of ${r.firm}`, [
          `Hi ${r.firstName}, ${r.by} verified your membership of ${r.firm} on Porchlight.`,
          `You now see your firm's Market Center offers and can join its teams: ${r.link}`,
        ])
      : layout(to, `Your membership of ${r.firm} was not verified`, [
          `Hi ${r.firstName}, ${r.by} declined your request to be a member of ${r.firm} on Porchlight.`,
          'Everything of your own keeps working. If this is a mistake, please talk to your Team Lead.',
        ])
  },

  /** To the operator: an agent whose firm membership is not verified asks it to verify it. */
  firmVerificationRequested(
    to: string,
    r: { agent: string; email: string; firm: string; license: string; verifiedMembers: number; link: string },
  ): MailContent {
    return layout(to, `Verification asked: ${r.agent} of ${r.firm}`, [
      `${r.agent} (${r.email}) asks to be verified as a member of ${r.firm}, broker firm license ${r.license}.`,
      r.verifiedMembers === 0
        ? 'Nobody of this firm is verified yet, so nobody in the firm can approve it.'
        : `${r.verifiedMembers} verified member(s) of this firm could approve it too.`,
      `Check the license, then verify it on the operator page: ${r.link}`,
    ])
  },

  /** A role granted or (back to Real Estate Agent) revoked by a Team Lead of the firm or the operator. */
  firmRoleGranted(
    to: string,
    r: { firstName: string; firm: string; role: string; previousRole: string; by: string; link: string },
  ): MailContent {
    return r.role === 'Real Estate Agent'
      ? layout(to, `You are no longer ${r.previousRole} at ${r.firm}`, [
          `Hi ${r.firstName}, ${r.by} changed your role at ${r.firm} on Porchlight from ${r.previousRole} to Real Estate Agent.`,
          `Everything of your own keeps working. If this is a mistake, please talk to your Team Lead: ${r.link}`,
        ])
      : layout(to, `You are now ${r.role} at ${r.firm}`, [
          `Hi ${r.firstName}, ${r.by} granted you the ${r.role} role at ${r.firm} on Porchlight (you were ${r.previousRole}).`,
          `See what it lets you do: ${r.link}`,
        ])
  },

  teamMembershipInvitation(
    to: string,
    r: { firstName: string; team: string; teamType: string; lead: string; link: string },
  ): MailContent {
    return layout(to, `${r.lead} invites you to ${r.team}`, [
      `Hi ${r.firstName}, ${r.lead} invites you to join ${r.team} (${r.teamType}) on Porchlight.`,
      `As a member you get the team's open houses to host, and ${r.lead} may schedule open houses for you. Accept or decline here: ${r.link}`,
      'Nothing changes until you accept.',
    ])
  },

  guestThankYou(
    to: string,
    r: { firstName: string; address: string; when: string; agent: string },
  ): MailContent {
    return layout(to, `Thank you for visiting ${r.address}`, [
      `Hi ${plainFirstName(r.firstName)}, thank you for visiting the open house at ${r.address}${r.when ? ` (${r.when})` : ''}.`,
      `${r.agent} will be glad to answer your questions about the home.`,
      'You get this mail because you agreed to hear from us by email at the open house.',
    ])
  },

  /** The agent's note two days after the visit, with the listing's link. */
  guestFollowUp(
    to: string,
    r: { firstName: string; address: string; agent: string; link: string },
  ): MailContent {
    return layout(to, `Still thinking about ${r.address}?`, [
      `Hi ${plainFirstName(r.firstName)}, it was good to see you at the open house at ${r.address}.`,
      `Everything about the home is here: ${r.link}`,
      `Just reply to this mail if you have a question or would like to see it again. — ${r.agent}`,
      'You get this mail because you agreed to hear from us by email at the open house.',
    ])
  },

  /**
   * To the seller, once, when the open house ended (decision 051): what the seller report page shows,
   * as counts and anonymised comments, never a visitor's name or contact, and the live link.
   */
  sellerOpenHouseEnded(
    to: string,
    r: {
      address: string
      when: string
      agent: string
      visitors: { count: number; withAgent: number; withoutAgent: number; agentUnknown: number }
      feedback: { count: number; averages: Ratings; comments: string[] }
      link: string
      expires: string
    },
  ): MailContent {
    const v = r.visitors
    const averages = ratingList(r.feedback.averages)
    const said = [
      v.withoutAgent > 0 ? `${v.withoutAgent} without an agent` : '',
      v.withAgent > 0 ? `${v.withAgent} with an agent` : '',
      v.agentUnknown > 0 ? `${v.agentUnknown} did not say` : '',
    ].filter(Boolean)
    return layout(
      to,
      `Your open house at ${r.address}: ${v.count} ${v.count === 1 ? 'visitor' : 'visitors'}`,
      [
        `The open house at ${r.address} (${r.when}) has ended. ${r.agent} shares how it went.`,
        `Visitors: ${v.count}${said.length ? ` (${said.join(', ')})` : ''}.`,
        `Feedback received: ${r.feedback.count}`,
        ...(averages ? [`Average ratings — ${averages}`] : []),
        ...r.feedback.comments.map((c) => `“${c}”`),
        `The full report, which keeps itself up to date until ${r.expires}: ${r.link}`,
        `Questions? Just reply to this mail to reach ${r.agent}.`,
      ],
    )
  },

  feedbackShare(
    to: string,
    r: { address: string; when: string; ratings: Ratings; text: string | null },
  ): MailContent {
    const ratings = ratingList(r.ratings)
    return layout(to, `New feedback on the open house at ${r.address}`, [
      `A visitor left feedback on the open house at ${r.address}${r.when ? ` (${r.when})` : ''}.`,
      ratings ? `Ratings — ${ratings}` : 'No ratings given.',
      ...(r.text ? [`“${r.text}”`] : []),
    ])
  },
}
