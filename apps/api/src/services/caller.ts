/** The signed-in caller: their user, the sign-in their token belongs to, their address. */
export interface Caller {
  userId: string;
  sessionId: string;
  ip: string;
}
