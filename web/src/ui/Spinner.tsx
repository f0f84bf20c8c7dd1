import { ProgressBar } from 'react-aria-components'
import './Spinner.css'

export interface SpinnerProps {
  /** What is loading, read by screen readers and shown beside the spinner. */
  label: string
}

/** An indeterminate progress indicator (role="progressbar") with a visible label. */
export function Spinner({ label }: SpinnerProps) {
  return (
    <ProgressBar isIndeterminate aria-label={label} className="spinner">
      <span className="spinner__circle" aria-hidden="true" />
      <span className="spinner__label">{label}</span>
    </ProgressBar>
  )
}
