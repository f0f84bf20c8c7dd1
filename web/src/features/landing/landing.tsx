import type { ComponentType, ReactNode } from 'react'
import { useDocumentTitle } from '../../ui/use-document-title.ts'
import './landing.css'

export interface LandingLinkProps {
  to: '/signup' | '/signin' | '/pricingplans'
  variant?: 'inline' | 'button-primary' | 'button-secondary'
  children: ReactNode
}

const highlights = [
  {
    title: 'Schedule and publish',
    text: 'Keep your inventory in one place, schedule open houses and offer them to your team, your market center or every agent.',
  },
  {
    title: 'Guests sign in by QR code',
    text: 'Visitors scan a code at the door, sign in on their phone and leave feedback. Every guest becomes a lead you can follow up.',
  },
  {
    title: 'Host together',
    text: 'Agents claim published open houses in real time. Teams see who is hosting, who came and how the home was rated.',
  },
]

/**
 * The page an agent sees before signing in. Its links are given: the agent app's router links when
 * the app shows it (a signed-in agent, or a navigation inside the app), plain links in the page
 * prerendered at build time for everyone else (landing-page.tsx, docs/decisions/013-landing-page.md).
 */
export function Landing({ Link }: { Link: ComponentType<LandingLinkProps> }) {
  useDocumentTitle('Porchlight')
  return (
    <div className="landing">
      <section className="landing__hero" aria-labelledby="landing-title">
        <div className="landing__intro">
          <p className="eyebrow">Open houses, leads and teams</p>
          <h1 id="landing-title" className="landing__title">
            Porchlight is always free for <span className="landing__solo">SOLO agents</span>, with premium
            features.
          </h1>
          <p className="lede">
            Turn every open house into new clients: schedule it, sign guests in from their phones and watch
            the leads arrive live.
          </p>
          <div className="landing__actions">
            <Link to="/signup" variant="button-primary">
              Start lead generation
              <ArrowIcon />
            </Link>
            <Link to="/signin" variant="button-secondary">
              Explore open house opportunities
            </Link>
          </div>
        </div>
        <BoardPreview />
      </section>

      <section className="landing__highlights" aria-labelledby="highlights-title">
        <h2 id="highlights-title" className="visually-hidden">
          What Porchlight does
        </h2>
        <ul className="landing__grid">
          {highlights.map((item) => (
            <li key={item.title} className="card landing__card">
              <h3>{item.title}</h3>
              <p>{item.text}</p>
            </li>
          ))}
        </ul>
        <p className="landing__pricing">
          Growing a team? <Link to="/pricingplans">Compare pricing plans</Link>
        </p>
      </section>
    </div>
  )
}

function ArrowIcon() {
  return (
    <svg className="icon" viewBox="0 0 20 20" aria-hidden="true">
      <path d="M4 10h12m-5-5 5 5-5 5" />
    </svg>
  )
}

/** A decorative picture of the live attendee board; hidden from assistive technology. */
function BoardPreview() {
  const guests = [
    { name: 'Maya R.', time: '2:04 PM', note: 'Pre-approved' },
    { name: 'Daniel K.', time: '1:47 PM', note: 'No realtor yet' },
    { name: 'Priya S.', time: '1:32 PM', note: 'Just exploring' },
  ]
  return (
    <div className="landing__preview card" aria-hidden="true">
      <div className="preview__header">
        <div>
          <p className="preview__address">214 Maple Avenue</p>
          <p className="preview__meta">Sunday · 1:00 PM – 4:00 PM</p>
        </div>
        <span className="preview__live">
          <span className="preview__dot" />
          Live
        </span>
      </div>
      <ul className="preview__list">
        {guests.map((guest, index) => (
          <li key={guest.name} className={index === 0 ? 'preview__row preview__row--new' : 'preview__row'}>
            <span className="preview__avatar">{guest.name.charAt(0)}</span>
            <span className="preview__name">{guest.name}</span>
            <span className="preview__note">{guest.note}</span>
            <span className="preview__time">{guest.time}</span>
          </li>
        ))}
      </ul>
      <p className="preview__footer">3 guests signed in · 2 new leads</p>
    </div>
  )
}
