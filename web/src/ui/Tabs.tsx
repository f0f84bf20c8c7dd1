import {
  Tab as AriaTab,
  TabList as AriaTabList,
  TabPanel as AriaTabPanel,
  Tabs as AriaTabs,
  composeRenderProps,
  type TabListProps,
  type TabPanelProps,
  type TabProps,
  type TabsProps,
} from 'react-aria-components'
import { cx } from './cx.ts'
import './Tabs.css'

/** Tabs with arrow-key navigation between them (WAI-ARIA tabs pattern). */
export function Tabs({ className, ...props }: TabsProps) {
  return <AriaTabs {...props} className={composeRenderProps(className, (extra) => cx('tabs', extra))} />
}

export function TabList<T extends object>({ className, ...props }: TabListProps<T>) {
  return (
    <AriaTabList {...props} className={composeRenderProps(className, (extra) => cx('tabs__list', extra))} />
  )
}

export function Tab({ className, ...props }: TabProps) {
  return <AriaTab {...props} className={composeRenderProps(className, (extra) => cx('tabs__tab', extra))} />
}

export function TabPanel({ className, ...props }: TabPanelProps) {
  return (
    <AriaTabPanel {...props} className={composeRenderProps(className, (extra) => cx('tabs__panel', extra))} />
  )
}
