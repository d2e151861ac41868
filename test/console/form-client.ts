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
  /** Loads the sign-in form and posts `token` with the form's one-time token and cookie, as a browser does. */
  submitSignIn(token: string): Promise<{ form: Answer; answer: Answer }>;
  /** Signs in (it must succeed): the session cookie, its CSRF token and where sign-in sent the browser. */
  signIn(token: string): Promise<{ cookie: string; csrf: string; location: string | null }>;
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
  const submitSignIn: FormClient['submitSignIn'] = async (token) => {
    const form = await get('/console/sign-in');
    const answer = await postForm(
      '/console/sign-in',
      { csrf: fieldOf(form.text, 'csrf'), token },
      cookiePair(form, 'provcert_console_signin'),
    );
    return { form, answer };
  };
  return {
    get,
    postForm,
    submitSignIn,
    async signIn(token) {
      const { answer } = await submitSignIn(token);
      expect(answer.status).toBe(303);
      const cookie = cookiePair(answer, 'provcert_console');
      const location = answer.headers.get('location');
      const page = await get(location ?? '/', cookie);
      return { cookie, csrf: fieldOf(page.text, 'csrf'), location };
    },
  };
}
