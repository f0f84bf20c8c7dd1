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

/**
 * Keeps the selected tab in view inside a strip that scrolls sideways (a phone shows two or three of
 * five tabs): on first show and whenever the selection moves, by a link or by the arrow keys. Only the
 * strip scrolls, never the page.
 */
function keepSelectedInView(list: HTMLDivElement | null) {
  if (!list) return
  const reveal = () => {
    const tab = list.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]')
    if (!tab) return
    // The strip is positioned (Tabs.css), so a tab's offsetLeft counts from the strip's edge.
    const start = tab.offsetLeft
    const end = start + tab.offsetWidth
    if (start < list.scrollLeft) list.scrollLeft = start
    else if (end > list.scrollLeft + list.clientWidth) list.scrollLeft = end - list.clientWidth
  }
  reveal()
  const observer = new MutationObserver(reveal)
  // Tabs arrive after the strip (react-aria builds its collection first), then change selection.
  observer.observe(list, { subtree: true, childList: true, attributeFilter: ['aria-selected'] })
  return () => observer.disconnect()
}

export function TabList<T extends object>({ className, ...props }: TabListProps<T>) {
  return (
    <AriaTabList
      {...props}
      ref={keepSelectedInView}
      className={composeRenderProps(className, (extra) => cx('tabs__list', extra))}
    />
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
