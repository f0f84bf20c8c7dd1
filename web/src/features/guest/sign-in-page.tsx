import type { PublicOpenHouse } from '@porchlight/shared'
import {
  EMAIL_MAX_LENGTH,
  EMAIL_PATTERN,
  PROSPECT_MAX_LENGTHS as MAX,
  PHONE_NUMBER_NOT_VALID,
  PHONE_NUMBER_REQUIRED,
  PHONE_PATTERN,
  POSTAL_CODE_PATTERN,
  PROSPECT_NAME_LABELS,
  requiredMessage,
  ZIP_CODE_NOT_VALID,
} from '@porchlight/shared/constants/fields'
import {
  BEST_TIMES_TO_CONTACT,
  CURRENT_HOUSE_STATUSES,
  HEARD_ABOUT_THIS_OPEN_HOUSE,
  HOME_BUYING_TIMELINES,
  PROSPECT_NOTIFICATIONS,
} from '@porchlight/shared/constants/prospect-options'
import { messages } from '@porchlight/shared/messages'
import { OPEN_HOUSE_ENDED, signInClosed } from '@porchlight/shared/rules/guest-visit'
import { type FormEvent, useEffect, useRef, useState } from 'react'
import { ApiError } from '../../api/request.ts'
import { agreedText, type Channel, ConsentFields, consentWording, NO_CONSENT } from './consent.tsx'
import {
  type AnswerErrors,
  type Answers,
  answerErrors,
  answersInput,
  CustomAnswerFields,
} from './custom-answers.tsx'
import { saveGuestProspect } from './guest-api.ts'
import { ChoiceField, TextInput } from './guest-fields.tsx'
import { type GuestQuery, guestHref, navigate } from './guest-nav.ts'
import { GuestMessage, GuestShell, NOT_OPEN_FOR_SIGN_IN } from './guest-shell.tsx'
import { keepGuestToken } from './guest-tokens.ts'
import { isStandIn } from './offline-stand-in.ts'
import { keepSignIn, onPendingResult, type PendingSignIn, sendPendingSignIns } from './pending-sign-ins.ts'

const EMPTY = {
  prospectFirstName: '',
  prospectLastName: '',
  prospectEmailId: '',
  prospectPhoneNumber: '',
  workingWithREAgentFlag: '',
  currentHouseStatus: '',
  homeBuyingTimelines: '',
  heardAboutThisOpenHouse: '',
  bestTimeToContact: '',
  prospectNotification: '',
  prospectAddress1: '',
  prospectAddress2: '',
  prospectCity: '',
  prospectState: '',
  prospectZipCode: '',
}
type Values = typeof EMPTY
type Field = keyof Values
type Errors = Partial<Record<Field, string>>

// SPEC §5: these four are required; an empty one says what the server says when it is missing.
const REQUIRED: Array<[Field, string]> = [
  ['prospectFirstName', requiredMessage(PROSPECT_NAME_LABELS.prospectFirstName)],
  ['prospectLastName', requiredMessage(PROSPECT_NAME_LABELS.prospectLastName)],
  ['prospectEmailId', messages.emailIdNotValid],
  ['prospectPhoneNumber', PHONE_NUMBER_REQUIRED],
]

/**
 * The patterns and words the shared GuestSignInBody schema is built from, checked here without zod so
 * a visitor hears at once, and offline, what the server would refuse.
 */
function validate(values: Values): Errors {
  const errors: Errors = {}
  for (const [field, message] of REQUIRED) if (!values[field].trim()) errors[field] = message
  const email = values.prospectEmailId.trim()
  if (email && (email.length > EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(email))) {
    errors.prospectEmailId = messages.emailIdNotValid
  }
  const phone = values.prospectPhoneNumber.trim()
  if (phone && !PHONE_PATTERN.test(phone)) errors.prospectPhoneNumber = PHONE_NUMBER_NOT_VALID
  const zip = values.prospectZipCode.trim()
  if (zip && !POSTAL_CODE_PATTERN.test(zip)) errors.prospectZipCode = ZIP_CODE_NOT_VALID
  return errors
}

/** SPEC /public/OpenHouseToday/new: the guest prospect form; submit is a create. */
export function SignInPage({ query }: { query: GuestQuery }) {
  return (
    <GuestShell title="Sign In" openHouseId={query.openHouseId} opensOffline>
      {(oh) =>
        signInClosed(oh.endsAt) ? (
          <GuestMessage tone="info">{OPEN_HOUSE_ENDED}</GuestMessage>
        ) : (
          <SignInForm oh={oh} query={query} />
        )
      }
    </GuestShell>
  )
}

/**
 * The guest sign-in form. At a kiosk (`onKioskSignIn`) a sign-in, sent or kept offline, thanks the
 * visitor by first name instead of opening the confirm page, and keeps no feedback token on the device.
 */
export function SignInForm({
  oh,
  query,
  onKioskSignIn,
}: {
  oh: PublicOpenHouse
  query: GuestQuery
  onKioskSignIn?: (firstName: string) => void
}) {
  const [values, setValues] = useState(EMPTY)
  const [errors, setErrors] = useState<Errors>({})
  const [consent, setConsent] = useState(NO_CONSENT)
  const [answers, setAnswers] = useState<Answers>({})
  const [answerProblems, setAnswerProblems] = useState<AnswerErrors>({})
  const [formError, setFormError] = useState<string | null>(null)
  const [saved, setSaved] = useState(false)
  const [submitting, setSubmitting] = useState(false)
  // One id per sign-in, kept across retries so the server makes one visit however often it is sent.
  const requestId = useRef<string>(crypto.randomUUID())
  const formRef = useRef<HTMLFormElement>(null)
  const known = !isStandIn(oh)
  const rePropertyId = query.rePropertyId ?? (known ? oh.rePropertyId : null)
  const wording = consentWording(oh)

  const confirmHref = (prospectId: number) =>
    guestHref('/new/confirm', { openHouseId: oh.id, rePropertyId, prospectId, from: query.from })

  // A sign-in kept offline goes to the confirm page as soon as it is sent. The listener outlives
  // renders, so it reads this render's helpers through a ref.
  const latest = useRef<{ confirmHref: (id: number) => string; showFailure: (error: unknown) => void }>({
    confirmHref: () => '',
    showFailure: () => {},
  })
  useEffect(
    () =>
      onPendingResult(({ sent, refused }) => {
        if (sent?.pending.body.clientRequestId === requestId.current) {
          navigate(latest.current.confirmHref(sent.prospectId))
        }
        if (refused?.pending.body.clientRequestId === requestId.current) {
          setSaved(false)
          latest.current.showFailure(refused.error)
        }
      }),
    [],
  )

  const set = (field: Field) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }))
    setErrors((e) => {
      if (!(field in e)) return e
      const next = { ...e }
      delete next[field]
      return next
    })
  }

  // SPEC §3 prospectNotification says which ways the agent may use; until it is chosen, both are offered.
  const channels: readonly Channel[] =
    values.prospectNotification === 'Email'
      ? ['email']
      : values.prospectNotification === 'SMS'
        ? ['sms']
        : ['email', 'sms']

  function showFailure(error: unknown) {
    if (error instanceof ApiError && error.fieldErrors.length > 0) {
      const next: Errors = {}
      const other: string[] = []
      const answerNext: AnswerErrors = {}
      for (const { field, message } of error.fieldErrors) {
        const answerOf = /^customAnswers\.(\d+)$/.exec(field)?.[1]
        if (field in EMPTY) next[field as Field] ??= message
        else if (answerOf && oh.customQuestions.some((q) => String(q.id) === answerOf))
          answerNext[answerOf] ??= message
        else other.push(message)
      }
      setErrors(next)
      setAnswerProblems(answerNext)
      setFormError(other.length > 0 ? other.join(' ') : null)
      focusFirstInvalid()
      return
    }
    setFormError(
      error instanceof ApiError && error.status === 404
        ? NOT_OPEN_FOR_SIGN_IN
        : error instanceof ApiError && error.status >= 400 && error.status < 500
          ? error.message
          : messages.propertySaveFailed,
    )
  }

  function focusFirstInvalid() {
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus())
  }

  latest.current = { confirmHref, showFailure }

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (submitting || saved) return
    setFormError(null)
    const found = validate(values)
    const foundInAnswers = answerErrors(oh.customQuestions, answers)
    setErrors(found)
    setAnswerProblems(foundInAnswers)
    if (Object.keys(found).length > 0 || Object.keys(foundInAnswers).length > 0) {
      focusFirstInvalid()
      return
    }
    const emailConsent = channels.includes('email') && consent.email
    const smsConsent = channels.includes('sms') && consent.sms
    const listingAgentConsent = wording.listingAgent !== null && consent.listingAgent
    const consentText = agreedText(wording, consent, channels)
    // The option fields hold SPEC labels from the lists above (or ''); the server checks them again.
    const body = {
      ...values,
      workingWithREAgentFlag:
        values.workingWithREAgentFlag === 'true' || values.workingWithREAgentFlag === 'false'
          ? values.workingWithREAgentFlag
          : null, // skipped: not said, never "No" (decision 038)
      openHouseId: oh.id,
      rePropertyId: rePropertyId ?? undefined,
      reAgentId: query.reAgentId ?? undefined,
      clientRequestId: requestId.current,
      emailConsent: emailConsent ? 'true' : 'false',
      smsConsent: smsConsent ? 'true' : 'false',
      listingAgentConsent: listingAgentConsent ? 'true' : 'false',
      consentText: consentText || undefined,
      customAnswers: answersInput(answers),
      createdDate: new Date().toISOString(),
      updatedDate: new Date().toISOString(),
      ...(onKioskSignIn ? { kiosk: 'true' } : {}),
    } as PendingSignIn['body']
    const keep = () => {
      // Sent later, it is counted as captured offline in the host's receipt.
      keepSignIn({
        body: { ...body, savedOffline: 'true' },
        rePropertyId,
        from: query.from,
        savedAt: new Date().toISOString(),
      })
      if (onKioskSignIn) onKioskSignIn(values.prospectFirstName)
      else setSaved(true)
    }
    if (!navigator.onLine) {
      keep()
      return
    }
    setSubmitting(true)
    try {
      const { id, guestToken } = await saveGuestProspect(body)
      if (onKioskSignIn) return onKioskSignIn(values.prospectFirstName)
      keepGuestToken(oh.id, id, guestToken)
      navigate(confirmHref(id))
    } catch (error) {
      if (error instanceof ApiError && error.retryable) {
        keep()
        // It may be a passing blip: try once more straight away, then on 'online' and the timer.
        void sendPendingSignIns()
      } else showFailure(error)
    } finally {
      setSubmitting(false)
    }
  }

  if (saved) {
    return (
      <div className="guest-message guest-message--info" role="status">
        <p>
          <strong>Your sign-in is saved on this phone.</strong> You seem to be offline; it will be sent
          automatically as soon as you are back online, or the next time this page is opened.
        </p>
      </div>
    )
  }

  return (
    <form
      ref={formRef}
      className="guest-form"
      onSubmit={submit}
      noValidate
      aria-describedby="guest-form-note"
    >
      <p id="guest-form-note" className="guest-muted">
        Fields marked <span aria-hidden="true">*</span>
        <span className="visually-hidden">required</span> are required.
      </p>
      {formError && (
        <div className="guest-message guest-message--error" role="alert">
          {formError}
        </div>
      )}
      <TextInput
        label="First Name"
        name="prospectFirstName"
        maxLength={MAX.prospectFirstName}
        autoComplete="given-name"
        required
        value={values.prospectFirstName}
        onChange={set('prospectFirstName')}
        error={errors.prospectFirstName}
      />
      <TextInput
        label="Last Name"
        name="prospectLastName"
        maxLength={MAX.prospectLastName}
        autoComplete="family-name"
        required
        value={values.prospectLastName}
        onChange={set('prospectLastName')}
        error={errors.prospectLastName}
      />
      <TextInput
        label="Email"
        name="prospectEmailId"
        maxLength={EMAIL_MAX_LENGTH}
        type="email"
        autoComplete="email"
        inputMode="email"
        required
        value={values.prospectEmailId}
        onChange={set('prospectEmailId')}
        error={errors.prospectEmailId}
      />
      <TextInput
        label="Phone"
        name="prospectPhoneNumber"
        type="tel"
        autoComplete="tel"
        inputMode="tel"
        required
        value={values.prospectPhoneNumber}
        onChange={set('prospectPhoneNumber')}
        error={errors.prospectPhoneNumber}
      />

      <fieldset className="guest-fieldset">
        <legend>About your home search (optional)</legend>
        <ChoiceField
          label="Working with a real estate agent?"
          name="workingWithREAgentFlag"
          options={[
            ['true', 'Yes'],
            ['false', 'No'],
          ]}
          value={values.workingWithREAgentFlag}
          onChange={set('workingWithREAgentFlag')}
          error={errors.workingWithREAgentFlag}
        />
        <ChoiceField
          label="Current Home"
          name="currentHouseStatus"
          options={CURRENT_HOUSE_STATUSES}
          value={values.currentHouseStatus}
          onChange={set('currentHouseStatus')}
          error={errors.currentHouseStatus}
        />
        <ChoiceField
          label="Home Buying Timeline"
          name="homeBuyingTimelines"
          options={HOME_BUYING_TIMELINES}
          value={values.homeBuyingTimelines}
          onChange={set('homeBuyingTimelines')}
          error={errors.homeBuyingTimelines}
        />
        <ChoiceField
          label="How did you hear about this open house?"
          name="heardAboutThisOpenHouse"
          options={HEARD_ABOUT_THIS_OPEN_HOUSE}
          value={values.heardAboutThisOpenHouse}
          onChange={set('heardAboutThisOpenHouse')}
          error={errors.heardAboutThisOpenHouse}
        />
        <ChoiceField
          label="Best Time To Contact"
          name="bestTimeToContact"
          options={BEST_TIMES_TO_CONTACT}
          value={values.bestTimeToContact}
          onChange={set('bestTimeToContact')}
          error={errors.bestTimeToContact}
        />
        <ChoiceField
          label="How should we contact you?"
          name="prospectNotification"
          options={PROSPECT_NOTIFICATIONS}
          value={values.prospectNotification}
          onChange={set('prospectNotification')}
          error={errors.prospectNotification}
        />
      </fieldset>

      <fieldset className="guest-fieldset">
        <legend>Your address (optional)</legend>
        <TextInput
          label="Address Line 1"
          name="prospectAddress1"
          maxLength={MAX.prospectAddress1}
          autoComplete="address-line1"
          value={values.prospectAddress1}
          onChange={set('prospectAddress1')}
          error={errors.prospectAddress1}
        />
        <TextInput
          label="Address Line 2"
          name="prospectAddress2"
          maxLength={MAX.prospectAddress2}
          autoComplete="address-line2"
          value={values.prospectAddress2}
          onChange={set('prospectAddress2')}
          error={errors.prospectAddress2}
        />
        <TextInput
          label="City"
          name="prospectCity"
          maxLength={MAX.prospectCity}
          autoComplete="address-level2"
          value={values.prospectCity}
          onChange={set('prospectCity')}
          error={errors.prospectCity}
        />
        <div className="guest-row">
          <TextInput
            label="State"
            name="prospectState"
            maxLength={MAX.prospectState}
            autoComplete="address-level1"
            value={values.prospectState}
            onChange={set('prospectState')}
            error={errors.prospectState}
          />
          <TextInput
            label="Zip Code"
            name="prospectZipCode"
            autoComplete="postal-code"
            inputMode="numeric"
            value={values.prospectZipCode}
            onChange={set('prospectZipCode')}
            error={errors.prospectZipCode}
          />
        </div>
      </fieldset>

      <CustomAnswerFields
        questions={oh.customQuestions}
        answers={answers}
        errors={answerProblems}
        onChange={(id, answer) => {
          setAnswers((a) => ({ ...a, [id]: answer }))
          setAnswerProblems(({ [id]: _, ...rest }) => rest)
        }}
      />

      {known && (
        <ConsentFields
          oh={oh}
          wording={wording}
          channels={channels}
          choice={consent}
          onChange={(change) => setConsent((c) => ({ ...c, ...change }))}
        />
      )}

      <button
        type="submit"
        className="guest-button guest-button--primary guest-button--block"
        disabled={submitting}
        aria-disabled={submitting}
      >
        {submitting ? 'Submitting...' : 'Sign In'}
      </button>
    </form>
  )
}
