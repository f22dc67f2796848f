// JumpClient.Accounts.cs - several users signed in to one client (config key "accounts" = "multiple"): the saved
// accounts listed, one made active without a password, one removed. With "single" (the default) the list holds the
// signed-in user, if any.
using System;
using System.Threading;
using System.Threading.Tasks;

namespace Jump
{
    public sealed partial class JumpClient
    {
        /// <summary>The saved accounts (jump_client_accounts), the active one first, then the most recently used,
        /// and the active account's uuid (null when no user is active). With accounts "single": the signed-in
        /// user, if any. Reads the index of saved accounts on storage again (no network).</summary>
        public SavedAccounts Accounts()
        {
            IntPtr p;
            int status = Native.jump_client_accounts(_handle, out p);
            return new SavedAccounts(TakeResult(status, p));
        }

        /// <summary>Makes the saved account of uuid the active one, without a password: the client's calls go to
        /// it from now on, and the Event account_switched tells the app. Its token is refreshed first when
        /// stale. Unsynced edits stay with the account that made them. No saved account has uuid:
        /// JumpNotFoundException.</summary>
        /// <param name="uuid">The uuid of a saved account (<see cref="SavedAccount.Uuid"/>).</param>
        public void SwitchAccount(string uuid)
        {
            JumpException.Check(Native.jump_client_switch_account(_handle, Utf8.Encode(uuid, "uuid")));
        }

        /// <summary>Makes the saved account of uuid the active one, like <see cref="SwitchAccount"/>.</summary>
        /// <param name="uuid">The uuid of a saved account (<see cref="SavedAccount.Uuid"/>).</param>
        /// <param name="cancellationToken">Cancels the switch (its token refresh): the Task ends Canceled.</param>
        public Task SwitchAccountAsync(string uuid, CancellationToken cancellationToken = default(CancellationToken))
        {
            return StartEmpty(cancellationToken, () =>
            {
                byte[] u = Utf8.Encode(uuid, "uuid");
                return (out JumpRequestHandle r) =>
                    Native.jump_client_switch_account_async(_handle, u, IntPtr.Zero, IntPtr.Zero, IntPtr.Zero, out r);
            });
        }

        /// <summary>Signs the saved account of uuid out and erases everything of it on storage (its session, its
        /// unsynced edits, its quarantine and secrets); the other accounts stay signed in and usable. A removed
        /// active account leaves no user active (<see cref="IsSignedIn"/> is false until a sign-in or a switch).
        /// No saved account has uuid: JumpNotFoundException.</summary>
        /// <param name="uuid">The uuid of a saved account (<see cref="SavedAccount.Uuid"/>).</param>
        public void RemoveAccount(string uuid)
        {
            JumpException.Check(Native.jump_client_remove_account(_handle, Utf8.Encode(uuid, "uuid")));
        }
    }
}
