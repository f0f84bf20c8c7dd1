import { annualPrice, formatPrice, messages, type PlanView, type PricingPlan } from '@porchlight/shared'
import { useQueryClient } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { errorMessage } from '../../api/client.ts'
import { readPreLoginProfile } from '../../api/storage.ts'
import { Alert } from '../../ui/Alert.tsx'
import { ConfirmDialog } from '../../ui/Modal.tsx'
import { setFlash } from '../session/flash.ts'
import { signOut } from '../session/sign-out.ts'
import { useChoosePlanMutation } from './queries.ts'

const PLAN_ADDED = 'Pricing Plan added successfully! Please sign in to continue.'
const PLAN_NOT_ADDED = "Couldn't add the Pricing Plan. Please try again."
const planChanged = (title: string) => `Pricing Plan changed successfully! You are now on ${title}.`

interface ChoosePlanDialogProps {
  /** The plan being chosen; null keeps the dialog closed. */
  plan: PricingPlan | null
  view: PlanView
  reAgentId: number
  /** The purchase in force, which the choice replaces (PATCH) instead of adding one (POST). */
  purchaseId: number | undefined
  onClose: () => void
}

/**
 * SPEC §5 'Are you sure to add this Pricing Plan?'. The first plan after sign-up: a success alert and
 * /signin (SPEC §4), the session ended so the sign-in starts the agent's first full one. A change of
 * the plan in force keeps the session and goes back to My Pricing Plan.
 */
export function ChoosePlanDialog({ plan, view, reAgentId, purchaseId, onClose }: ChoosePlanDialogProps) {
  const choose = useChoosePlanMutation()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const frequency = view === 'annual' ? 'Yearly' : 'Monthly'

  const close = () => {
    choose.reset()
    onClose()
  }

  const confirm = () => {
    if (!plan) return
    choose.mutate(
      { pricingPlanId: plan.id, reAgentId, pricingPlanFrequency: frequency, purchaseId },
      {
        onSuccess: async () => {
          if (purchaseId !== undefined) {
            // A change of plan: the session goes on; what it knows of the plan (limits, counters) is
            // fetched again, and My Pricing Plan shows the new one.
            await queryClient.invalidateQueries()
            setFlash(planChanged(plan.pricingPlanTitle))
            await navigate({ to: '/mystuff', search: { activeSection: 'myPricingPlan' } })
            return
          }
          // SPEC §4: the first plan after sign-up is followed by a sign-in, the email already filled in.
          setFlash(PLAN_ADDED, readPreLoginProfile()?.porchlightUserEmailId)
          // Signed out first: /signin sends an agent still signed in on to the dashboard.
          await signOut(queryClient)
          await navigate({ to: '/signin' })
        },
      },
    )
  }

  const amount = plan
    ? view === 'annual'
      ? annualPrice(plan.pricingPlanPriceMonthly, plan.pricingPlanPriceAnnualDiscPerc)
      : plan.pricingPlanPriceMonthly
    : 0

  return (
    <ConfirmDialog
      isOpen={plan !== null}
      onOpenChange={(open) => {
        if (!open) close()
      }}
      title={plan ? `Choose ${plan.pricingPlanTitle}` : 'Choose plan'}
      onConfirm={confirm}
      isPending={choose.isPending || choose.isSuccess}
      error={
        choose.isError ? <Alert tone="error" title={errorMessage(choose.error, PLAN_NOT_ADDED)} /> : null
      }
    >
      <p>{messages.confirmAddPricingPlan}</p>
      {plan && (
        <p className="choose-plan__summary">
          {plan.pricingPlanTitle} · {formatPrice(amount, plan.pricingPlanCurrency)} · {frequency}
        </p>
      )}
    </ConfirmDialog>
  )
}
