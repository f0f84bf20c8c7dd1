import type { ReactNode } from 'react'
import { cx } from './cx.ts'
import './Alert.css'

export type AlertTone = 'error' | 'info' | 'success'

export interface AlertProps {
  tone: AlertTone
  /** Short bold first line; the tone is also named in text, never by colour alone. */
  title: ReactNode
  children?: ReactNode
  /** Buttons shown under the text, e.g. Retry. */
  actions?: ReactNode
  className?: string
}

const icons: Record<AlertTone, string> = {
  error:
    'M12 8v5m0 3.5h.01M10.3 3.9 2.6 17.2A2 2 0 0 0 4.3 20h15.4a2 2 0 0 0 1.7-2.8L13.7 3.9a2 2 0 0 0-3.4 0Z',
  info: 'M12 16v-4m0-3.5h.01M21 12a9 9 0 1 1-18 0 9 9 0 0 1 18 0Z',
  success: 'm8.5 12.5 2.5 2.5 5-5.5M21 12a9 9 0 1 1-18 0 9 9 0 0 1 18 0Z',
}

/** A message box. Errors use role="alert" so they are read out at once; others are a polite status. */
export function Alert({ tone, title, children, actions, className }: AlertProps) {
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} className={cx('alert', `alert--${tone}`, className)}>
      <svg className="alert__icon" viewBox="0 0 24 24" aria-hidden="true">
        <path d={icons[tone]} />
      </svg>
      <div className="alert__body">
        <p className="alert__title">{title}</p>
        {children && <div className="alert__text">{children}</div>}
        {actions && <div className="alert__actions">{actions}</div>}
      </div>
    </div>
  )
}
