import { expect } from 'vitest';

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

/** The console as a browser without JavaScript uses it: pages, form posts, cookies, no redirect followed. */
export interface FormClient {
  get(path: string, cookie?: string): Promise<Answer>;
  postForm(path: string, fields: Record<string, string>, cookie?: string): Promise<Answer>;
  /** Signs in with the sign-in form's one-time token and cookie; the session cookie and its CSRF token. */
  signIn(token: string): Promise<{ cookie: string; csrf: string }>;
}

export const cookiePair = (answer: Answer, name: string): string => {
  const line = answer.headers.getSetCookie().find((c) => c.startsWith(`${name}=`)) ?? '';
  return line.split(';')[0] ?? '';
};

/** The value of a hidden form field of a page (the first one of that name). */
export const fieldOf = (page: string, name: string): string =>
  new RegExp(`name="${name}" value="([^"]+)"`).exec(page)?.[1] ?? '';

export function formClient(base: string): FormClient {
  const get: FormClient['get'] = async (path, cookie = '') => {
    const res = await fetch(`${base}${path}`, { redirect: 'manual', headers: cookie ? { cookie } : {} });
    return { status: res.status, headers: res.headers, text: await res.text() };
  };
  const postForm: FormClient['postForm'] = async (path, fields, cookie = '') => {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
      body: new URLSearchParams(fields).toString(),
    });
    return { status: res.status, headers: res.headers, text: await res.text() };
  };
  return {
    get,
    postForm,
    async signIn(token) {
      const form = await get('/console/sign-in');
      const answer = await postForm(
        '/console/sign-in',
        { csrf: fieldOf(form.text, 'csrf'), token },
        cookiePair(form, 'provcert_console_signin'),
      );
      expect(answer.status).toBe(303);
      const cookie = cookiePair(answer, 'provcert_console');
      const page = await get(answer.headers.get('location') ?? '/', cookie);
      return { cookie, csrf: fieldOf(page.text, 'csrf') };
    },
  };
}
