import type { PublicAttendee, PublicOpenHouse } from '@porchlight/shared'
import { useEffect, useState } from 'react'
import { doorAgentName } from './consent.tsx'
import { getPublicAttendees } from './guest-api.ts'
import { followLink, type GuestQuery, guestHref } from './guest-nav.ts'
import { GuestShell } from './guest-shell.tsx'
import { watchPublicAttendees } from './guest-socket.ts'
import { isStandIn } from './offline-stand-in.ts'

/** SPEC /public/OpenHouseToday: thank-you text, Sign In twice, and who has signed in so far (live). */
export function LandingPage({ query }: { query: GuestQuery }) {
  return (
    <GuestShell title="Welcome to our Open House" openHouseId={query.openHouseId} opensOffline>
      {(oh) => <Landing oh={oh} query={query} />}
    </GuestShell>
  )
}

function Landing({ oh, query }: { oh: PublicOpenHouse; query: GuestQuery }) {
  const signInHref = guestHref('/new', {
    openHouseId: oh.id,
    rePropertyId: query.rePropertyId ?? (isStandIn(oh) ? null : oh.rePropertyId),
    reAgentId: query.reAgentId,
    from: query.from,
  })
  const signIn = (
    <a
      className="guest-button guest-button--primary guest-button--block"
      href={signInHref}
      onClick={followLink}
    >
      Sign In
    </a>
  )
  const host = isStandIn(oh) ? 'the agent at the door' : doorAgentName(oh)

  return (
    <>
      <p className="guest-lede">
        Thank you for visiting! Please sign in so {host} can share details about this home and answer your
        questions.
      </p>
      {signIn}
      <AttendeeList openHouseId={oh.id} />
      {signIn}
    </>
  )
}

const key = (a: PublicAttendee) => `${a.signedInAt}|${a.firstName}|${a.lastInitial}`

function AttendeeList({ openHouseId }: { openHouseId: number }) {
  const [attendees, setAttendees] = useState<PublicAttendee[] | null>(null)
  const [failed, setFailed] = useState(false)
  const [fresh, setFresh] = useState<string | null>(null)
  const [announcement, setAnnouncement] = useState('')

  useEffect(() => {
    const controller = new AbortController()
    // Guests heard live, in order. A list asked for before a guest was heard may answer after it (a slow
    // link): that answer was read before the guest signed in, so the guest heard since is kept on top.
    const heard: PublicAttendee[] = []
    const load = () => {
      const since = heard.length
      return getPublicAttendees(openHouseId, controller.signal).then(
        (list) => {
          const listed = new Set(list.map(key))
          const newer = heard.slice(since).filter((a) => !listed.has(key(a)))
          setAttendees([...newer.reverse(), ...list])
          setFailed(false)
        },
        () => !controller.signal.aborted && setFailed(true),
      )
    }
    // One load at a time, in order, so an older answer never replaces a newer one.
    let loading = load()
    const reload = () => {
      loading = loading.then(load)
    }
    const stop = watchPublicAttendees(openHouseId, {
      onAttendee: (added) => {
        const attendee = {
          firstName: added.firstName,
          lastInitial: added.lastInitial,
          signedInAt: added.signedInAt,
        }
        heard.push(attendee)
        setAttendees((list) => {
          const rest = (list ?? []).filter((a) => key(a) !== key(attendee))
          return [attendee, ...rest]
        })
        setFresh(key(attendee))
        setAnnouncement(`${attendee.firstName} ${attendee.lastInitial}. just signed in.`)
      },
      // In the room now: a guest who signed in while the page loaded or the connection was away was
      // not heard, so the list is loaded again. (Also the first load of a page opened before its open
      // house was on show, which read the list the server preloaded with it: a 404.)
      onConnected: reload,
    })
    return () => {
      controller.abort()
      stop()
    }
  }, [openHouseId])

  return (
    <section className="guest-attendees" aria-labelledby="guest-attendees-title">
      <h2 id="guest-attendees-title">
        Signed in today{attendees && attendees.length > 0 ? ` (${attendees.length})` : ''}
      </h2>
      <div className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </div>
      {attendees === null ? (
        failed ? (
          <p className="guest-muted">The list of visitors could not be loaded. You can still sign in.</p>
        ) : (
          <p className="guest-muted">Loading visitors…</p>
        )
      ) : attendees.length === 0 ? (
        <p className="guest-muted">Nobody has signed in yet. Be the first!</p>
      ) : (
        <ul className="guest-attendees__list">
          {attendees.map((a) => (
            <li key={key(a)} className={key(a) === fresh ? 'is-new' : undefined}>
              {a.firstName} {a.lastInitial}.
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
