"""Which element an action touched, said as a program can name it again: role, accessible name, CSS selector.

A coordinate-driven agent clicks pixels; reporting the element under the point (walked up
to the control a person meant: a button, link, input, or the control a label belongs to)
lets its run be compiled into a program that targets that element by role and name.
The role and name follow the ARIA rules Playwright's `get_by_role` matches against.
"""

from __future__ import annotations

from typing import TypedDict

from playwright.async_api import ElementHandle, Locator, Page


class Identity(TypedDict):
    role: str
    name: str
    selector: str


_PICK = """
(element) => {
  const INTERACTIVE = 'a[href], area[href], button, input, select, textarea, label, summary, option, '
    + '[role=button], [role=link], [role=checkbox], [role=radio], [role=tab], [role=menuitem], [role=option], '
    + '[role=switch], [role=textbox], [role=combobox], [role=searchbox], [onclick], [contenteditable], '
    + '[tabindex]:not([tabindex="-1"])';
  if (!element) return null;
  const meant = element.closest(INTERACTIVE) || element;
  return meant.tagName === 'LABEL' && meant.control ? meant.control : meant;
}
"""

_IDENTIFY = """
(element) => {
  const squash = (text) => (text || '').replace(/\\s+/g, ' ').trim().slice(0, 200);
  const tag = element.tagName.toLowerCase();
  const type = (element.getAttribute('type') || '').toLowerCase();

  const implicitRole = () => {
    switch (tag) {
      case 'a': case 'area': return element.hasAttribute('href') ? 'link' : 'generic';
      case 'button': return 'button';
      case 'select': return element.multiple || element.size > 1 ? 'listbox' : 'combobox';
      case 'textarea': return 'textbox';
      case 'img': return element.getAttribute('alt') === '' ? 'presentation' : 'img';
      case 'h1': case 'h2': case 'h3': case 'h4': case 'h5': case 'h6': return 'heading';
      case 'ul': case 'ol': return 'list';
      case 'li': return 'listitem';
      case 'nav': return 'navigation';
      case 'main': return 'main';
      case 'form': return 'form';
      case 'table': return 'table';
      case 'tr': return 'row';
      case 'td': return 'cell';
      case 'th': return 'columnheader';
      case 'option': return 'option';
      case 'dialog': return 'dialog';
      case 'p': return 'paragraph';
      case 'article': return 'article';
      case 'fieldset': case 'details': return 'group';
      case 'progress': return 'progressbar';
      case 'hr': return 'separator';
      case 'input':
        if (['button', 'submit', 'reset', 'image', 'file'].includes(type)) return 'button';
        if (type === 'checkbox') return 'checkbox';
        if (type === 'radio') return 'radio';
        if (type === 'range') return 'slider';
        if (type === 'number') return 'spinbutton';
        if (type === 'search') return element.hasAttribute('list') ? 'combobox' : 'searchbox';
        return element.hasAttribute('list') ? 'combobox' : 'textbox';
    }
    return 'generic';
  };

  const explicit = (element.getAttribute('role') || '').trim().split(/\\s+/)[0];
  const role = explicit || implicitRole();
  const fromContent = ['button', 'link', 'heading', 'option', 'cell', 'columnheader', 'rowheader', 'checkbox',
    'radio', 'switch', 'tab', 'menuitem', 'treeitem', 'tooltip'].includes(role);
  const content = squash(element.innerText ?? element.textContent);

  const labelText = (label) => {  // a label's words, not the text of the control it wraps (a select's options)
    const words = [];
    const walker = document.createTreeWalker(label, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!element.contains(node)) words.push(node.textContent);
    }
    return words.join(' ');
  };
  const native = () => {
    if (element.labels && element.labels.length) return squash(Array.from(element.labels, labelText).join(' '));
    if (tag === 'img' || (tag === 'input' && type === 'image')) return squash(element.getAttribute('alt'));
    if (tag === 'input' && ['button', 'submit', 'reset'].includes(type)) {
      return squash(element.value) || (type === 'submit' ? 'Submit' : type === 'reset' ? 'Reset' : '');
    }
    return '';
  };

  const labelledBy = squash((element.getAttribute('aria-labelledby') || '').split(/\\s+/)
    .map((id) => document.getElementById(id)).filter(Boolean)
    .map((node) => node.innerText ?? node.textContent).join(' '));
  const name = labelledBy || squash(element.getAttribute('aria-label')) || native()
    || (fromContent ? content : '') || squash(element.getAttribute('title'))
    || squash(element.getAttribute('placeholder')) || (fromContent ? '' : content);

  const unique = (selector) => {
    try { return document.querySelectorAll(selector).length === 1; } catch { return false; }
  };
  const selectorFor = () => {
    if (element.id && unique('#' + CSS.escape(element.id))) return '#' + CSS.escape(element.id);
    const testId = element.getAttribute('data-testid');
    if (testId && unique(`[data-testid="${CSS.escape(testId)}"]`)) return `[data-testid="${CSS.escape(testId)}"]`;
    const named = element.getAttribute('name');
    if (named && unique(`${tag}[name="${CSS.escape(named)}"]`)) return `${tag}[name="${CSS.escape(named)}"]`;
    const steps = [];
    for (let node = element; node && node.nodeType === 1; node = node.parentElement) {
      if (node !== element && node.id && unique('#' + CSS.escape(node.id))) {
        steps.unshift('#' + CSS.escape(node.id));
        break;
      }
      const nodeTag = node.tagName.toLowerCase();
      if (nodeTag === 'body' || nodeTag === 'html') { steps.unshift(nodeTag); break; }
      const siblings = node.parentElement ? Array.from(node.parentElement.children) : [node];
      const same = siblings.filter((sibling) => sibling.tagName === node.tagName);
      steps.unshift(same.length > 1 ? `${nodeTag}:nth-of-type(${same.indexOf(node) + 1})` : nodeTag);
    }
    return steps.join(' > ');
  };

  return { role, name, selector: selectorFor() };
}
"""


async def identify(element: Locator | ElementHandle) -> Identity:
    """The role, accessible name and a selector that finds this element alone."""
    return await element.evaluate(_IDENTIFY)


async def element_at(page: Page, x: int, y: int) -> ElementHandle | None:
    """The control a person clicking at (x, y) in the viewport means, or None where there is no element."""
    handle = await page.evaluate_handle(f"([x, y]) => ({_PICK})(document.elementFromPoint(x, y))", [x, y])
    return handle.as_element()


async def focused(page: Page) -> Identity | None:
    """The element that has the keyboard focus, identified, or None when nothing but the page has it."""
    handle = await page.evaluate_handle("() => document.activeElement")
    element = handle.as_element()
    if element is None:
        return None
    identity = await identify(element)
    return None if identity["selector"] in ("body", "html") else identity
