// What a command prints on stdout: text as it is, anything else as indented JSON.
export const print = (o: unknown) => console.log(typeof o === 'string' ? o : JSON.stringify(o, null, 2));
