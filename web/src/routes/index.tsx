import { createFileRoute } from '@tanstack/react-router'
import { Landing, type LandingLinkProps } from '../features/landing/landing.tsx'
import { Link } from '../ui/Link.tsx'

// A visitor's first load of / is the prerendered page (landing-page.tsx); the app shows this route to
// a signed-in agent and after a navigation inside the app.
export const Route = createFileRoute('/')({
  component: () => <Landing Link={RouterLink} />,
})

function RouterLink({ to, variant, children }: LandingLinkProps) {
  return (
    <Link to={to} variant={variant}>
      {children}
    </Link>
  )
}
