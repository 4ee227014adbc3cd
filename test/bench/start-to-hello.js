export const name='xstart-to-hello'; export const title='start-to-hello'; export async function run(){return []}
