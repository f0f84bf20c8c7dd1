import type { PublicOpenHouse } from '@porchlight/shared'

type Agents = Pick<PublicOpenHouse, 'listingREAgentName' | 'hostingREAgentName'>

/** The lead is the agent's at the door: the host when one hosts, otherwise the listing agent. */
export const doorAgentName = (oh: Agents) => oh.hostingREAgentName ?? oh.listingREAgentName

/**
 * Someone other than the listing agent hosts, so the listing agent gets the visitor's details only if
 * the visitor asks for it. The public details carry names, not ids: a different name is a different agent.
 */
const hostIsSomeoneElse = (oh: Agents) =>
  oh.hostingREAgentName !== null && oh.hostingREAgentName !== oh.listingREAgentName

export type Channel = 'email' | 'sms'
export type ConsentChoice = Record<Channel | 'listingAgent', boolean>
export const NO_CONSENT: ConsentChoice = { email: false, sms: false, listingAgent: false }

/**
 * The consent wording the page shows, naming the agent at the door; what the visitor ticked is sent as
 * consentText, word for word. `listingAgent` is null unless someone else hosts.
 */
export function consentWording(oh: Agents) {
  const who =
    oh.hostingREAgentName !== null
      ? `${oh.hostingREAgentName}, who is hosting this open house,`
      : `${oh.listingREAgentName}, the listing agent,`
  return {
    email: `I agree that ${who} may contact me by email about this home and similar homes. I can ask them to stop at any time.`,
    sms: `I agree that ${who} may contact me by text message (SMS) about this home and similar homes. Message and data rates may apply. I can reply STOP at any time.`,
    listingAgent: hostIsSomeoneElse(oh)
      ? `Also share my name, email and phone with the listing agent, ${oh.listingREAgentName}, who may contact me about this home.`
      : null,
  }
}

type Wording = ReturnType<typeof consentWording>

/** The wording of every box ticked among those shown, in the order shown. */
export function agreedText(wording: Wording, choice: ConsentChoice, channels: readonly Channel[]): string {
  return [
    ...channels.map((channel) => choice[channel] && wording[channel]),
    choice.listingAgent && wording.listingAgent,
  ]
    .filter(Boolean)
    .join(' ')
}

interface ConsentFieldsProps {
  oh: Agents
  wording: Wording
  channels: readonly Channel[]
  choice: ConsentChoice
  onChange: (change: Partial<ConsentChoice>) => void
}

/** One box per way the door agent may reach the visitor, and a separate one for the listing agent. */
export function ConsentFields({ oh, wording, channels, choice, onChange }: ConsentFieldsProps) {
  return (
    <>
      <fieldset className="guest-fieldset guest-consent">
        <legend>May {doorAgentName(oh)} contact you?</legend>
        {channels.map((channel) => (
          <label key={channel} className="guest-check">
            <input
              type="checkbox"
              name={`${channel}Consent`}
              checked={choice[channel]}
              onChange={(e) => onChange({ [channel]: e.target.checked })}
            />
            <span>{wording[channel]}</span>
          </label>
        ))}
        <p className="guest-muted">Optional: you can sign in without agreeing.</p>
      </fieldset>
      {wording.listingAgent && (
        <fieldset className="guest-fieldset guest-consent">
          <legend>Share your details with the listing agent?</legend>
          <label className="guest-check">
            <input
              type="checkbox"
              name="listingAgentConsent"
              checked={choice.listingAgent}
              onChange={(e) => onChange({ listingAgent: e.target.checked })}
            />
            <span>{wording.listingAgent}</span>
          </label>
          <p className="guest-muted">Optional and separate from the choice above.</p>
        </fieldset>
      )}
    </>
  )
}
