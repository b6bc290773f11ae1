// bugs.js — every user-visible word about the Train page's bugs, in one place: what each
// collator does and what to look for once both runs have trained.
//
// The recipes themselves (which collate options each run uses) live in the core
// (cpp/core/train_bugs.cpp); this file only describes them. Which exercises are about a bug is
// said by the exercises themselves (their `train` field, compiled into the content index).
// Code is marked with backticks and rendered as <code>.

export const BUG_TEXT = {
  pad_eos_masked: {
    label: 'pad = eos, labels masked by id',
    buggy: '`pad_token_id = eos_token_id`, then `labels[labels == pad_token_id] = -100`: every real `<eos>` loses its label too.',
    fixed: 'The same pad = eos, but labels set to −100 by position: only the pads lose theirs.',
    look: [
      'The reported loss of the buggy run looks as good as the fixed run’s — better, even, since the hardest targets are gone — so the training curve gives no warning.',
      'Its P(`<eos>`) at the end of an answer sinks towards 0 while the fixed run’s climbs towards 1, and its eval loss, which scores the `<eos>`, stays high.',
      'In the samples the buggy model never stops: it repeats the sound until the token limit.',
    ],
  },
  pads_trained: {
    label: 'pads trained (labels = input_ids)',
    buggy: '`labels = input_ids` after padding: every pad position is a target.',
    fixed: 'Labels −100 at pad positions, chosen by position.',
    look: [
      'The buggy run reports a loss below its own loss over real targets: a pad after `<eos>` or after another pad is trivially easy, and the trainer averages those easy targets in.',
      'How far below depends on each batch’s share of padding, so the reported curve is noisier. Under the batch, “How much each target counts” shows each real target’s weight shrink when the pads share the loss.',
      'The eval loss here is scored the correct way and shows the model is no better for it. A Trainer that evaluates with the same buggy collator would deflate its eval loss the same way, so in a real run the bug does not show as a train/eval gap.',
      'After `<eos>` the buggy model predicts `<pad>` with near certainty (see the boundary table).',
    ],
  },
  all_ones_mask: {
    label: 'all-ones attention mask, right padding',
    buggy: '`attention_mask` all ones: the pads are marked as readable.',
    fixed: '`attention_mask` from lengths: 0 on every pad.',
    look: [
      'Nothing: the two runs are identical to the last bit, so their curves lie on top of each other.',
      'With right padding every pad comes after every real token, and the causal mask already hides later positions. Only the pads’ own outputs change, and no label scores them.',
      'The same mask does matter with left padding, packing or an encoder.',
    ],
  },
  left_pad_arange_positions: {
    label: 'left padding, position_ids from arange',
    buggy: 'Left padding with `position_ids` 0, 1, …, T−1: a row’s words start at its pad count, so the same row gets other positions in another batch.',
    fixed: 'Left padding with `position_ids` from the mask (cumsum − 1), as `generate()` builds them.',
    look: [
      'The buggy run’s eval loss stays high. In training, the only row of a batch whose words sat at positions 0, 1, 2, … was its longest, nearly always a six-sound answer.',
      'So at those positions the buggy model writes six sounds whatever the count: see the samples.',
      'The fixed run is exactly the right-padded run: the pads are invisible and the positions are the same.',
    ],
  },
  prompt_trained: {
    label: 'prompt tokens trained',
    buggy: 'The completion mask is dropped: the prompt’s animal, count and “:” are targets too.',
    fixed: 'Only the answer and its `<eos>` are trained.',
    look: [
      'The buggy run’s reported loss stays high: the animal and the count are drawn at random, so no model can predict them, while its loss over the answer falls like the fixed run’s.',
      'Given `<bos>` alone, the buggy model writes a whole prompt: it has learnt to play the user.',
    ],
  },
  token_vs_example_mean: {
    label: 'mean of per-example means',
    buggy: 'Loss = the mean over rows of each row’s own mean: a token of a short answer weighs up to 3.5 times a token of a long one.',
    fixed: 'Loss = all token losses summed, divided by the number of targets (the token mean).',
    look: [
      'The buggy run reports a different number (dashed) from its own token mean (dotted). The gap is small here, because short and long answers cost about the same per token; what differs is the weight.',
      'See “How much each target counts” under the batch: a target of a two-target row weighs 3.5 times one of a seven-target row in the buggy loss, and every target weighs the same in the fixed one. Try the skewed data mix.',
      'Both runs still learn this task: the bug changes how much each token counts, not which tokens are trained, so the eval curves part only a little, one way or the other depending on the seed.',
    ],
  },
  grad_accum_mean_of_means: {
    label: 'gradient accumulation, mean of micro-batch means',
    buggy: 'Four micro-batches of four rows; each loss is a mean over its own targets, and the step averages the four (the Trainer before transformers 4.46).',
    fixed: 'Each micro-batch’s summed loss is divided by the targets of the whole step (`num_items_in_batch`).',
    look: [
      'The logged loss of the buggy run (dashed) differs from the step’s token mean (dotted) whenever the micro-batches hold different numbers of targets; with equal counts the two agree.',
      'See “How much each target counts” under the batch: a target of a small micro-batch weighs more than one of a large micro-batch in the buggy loss, and all weigh the same in the fixed one.',
      'Both runs still learn this task, since every target is still trained; the eval curves part only a little, one way or the other depending on the seed.',
    ],
  },
};
