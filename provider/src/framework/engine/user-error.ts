/**
 * An error whose message is meant for the person running Pulumi: it names what to change, never
 * carries the token, and has no stack trace unless NSP_DEBUG asks for one.
 */
export class UserError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "Error";
    // Pulumi's hosts print `${error}: ${error.stack}`; a stack trace here would be noise.
    if (!process.env.NSP_DEBUG) this.stack = "(set NSP_DEBUG=1 for a stack trace)";
  }
}
