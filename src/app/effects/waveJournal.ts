/** What run --parallel's coordinator writes down and reads of its own run: the log, the checkpoint, the stop signal, the posts a killed run left. */
import { sendLeftPosts as sendPosts } from '../../loop/effects/notices.js';
import { saveLoop } from '../coordinator.js';
import type { WaveHandler } from './waveContext.js';

export const log: WaveHandler<'log'> = async (effect, c) => {
  c.logger[effect.level](effect.event, effect.message, effect.data);
  return undefined;
};

export const save: WaveHandler<'save'> = async (effect, c) => {
  await saveLoop(c, effect.status, [], effect.loop);
  return undefined;
};

export const readSignal: WaveHandler<'readSignal'> = async (_effect, c) => ({
  type: 'signalRead',
  aborted: c.io.signal?.aborted ?? false,
});

/** The Discord posts a killed coordinator left, sent as a slice's start sends them. */
export const sendLeftPosts: WaveHandler<'sendLeftPosts'> = async (effect, c) => {
  const loop = await sendPosts(effect.loop, c.notify);
  return { type: 'postsSent', loop, sent: loop !== effect.loop };
};
