/** The globs of the maintainer's protected and allowed paths. Pure. */
/**
 * Whether a glob matches a path: `*` any characters but `/`, `**` any (across directories), `?` one,
 * `{a,b}` either, `[abc]` a class; a glob without `/` matches the file's name at any depth.
 */
export function globMatch(glob: string, path: string): boolean {
  const g = glob.replace(/^\.\//, '');
  const subject = g.includes('/') ? path : (path.split('/').pop() as string);
  return globRegExp(g.replace(/^\//, '')).test(subject);
}

function globRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        i++;
        if (glob[i + 1] === '/') {
          i++;
          re += '(?:.*/)?';
        } else re += '.*';
      } else re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else if (c === '{') {
      const close = glob.indexOf('}', i);
      if (close < 0) re += '\\{';
      else {
        re += `(?:${glob
          .slice(i + 1, close)
          .split(',')
          .map((alt) => alt.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*'))
          .join('|')})`;
        i = close;
      }
    } else if (c === '[') {
      const close = glob.indexOf(']', i);
      if (close < 0) re += '\\[';
      else {
        re += `[${glob
          .slice(i + 1, close)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\')}]`;
        i = close;
      }
    } else re += c.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}
