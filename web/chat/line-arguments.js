// line-arguments.js — the template arguments a pasted dataset line brings (its `tools` and
// `chat_template_kwargs`, pasted-conversation.js), shown under the conversation for as long as
// they apply, with a button to render without them. A link carries them too (chat-state.js, kw),
// so this line is what tells a visitor why the render has a tools block they did not type.
//
//   const line = createLineArguments({ onDrop() {}, announce(text) {} });
//   place(line.element); line.set(kwargs);   // null hides it

import { h } from '../shared/dom.js';
import { describeTemplateArguments } from './pasted-conversation.js';

export const LINE_ARGUMENTS_TEXT = {
  shown: (kwargs) => `The template also gets your line’s ${describeTemplateArguments(kwargs)}, as TRL’s SFTTrainer passes them.`,
  drop: 'Render without them',
  dropped: 'The template renders without your line’s arguments now.',
};

export function createLineArguments({ onDrop = () => {}, announce = () => {} } = {}) {
  const text = h('span', {});
  const drop = h('button', { type: 'button', class: 'secondary small' }, LINE_ARGUMENTS_TEXT.drop);
  const box = h('p', { class: 'hint line-arguments', id: 'line-arguments', hidden: true }, text, ' ', drop);
  drop.addEventListener('click', () => {
    announce(LINE_ARGUMENTS_TEXT.dropped);
    onDrop();
  });
  return {
    element: box,
    set(kwargs) {
      box.hidden = !kwargs;
      text.textContent = kwargs ? LINE_ARGUMENTS_TEXT.shown(kwargs) : '';
    },
  };
}
