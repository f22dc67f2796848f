// JumpConfig.Storage.cs - host storage (jump_config_set_storage): the app's own key/value store (a keychain,
// keystore or encrypted preferences) in place of storageDirectory's files.
//
// Lifetime without libjump's context_free (see HostCallbacks.cs): the config holds the storage, and so does
// each client created from it (its handle), counted here; the registration goes with the last of them.
using System;
using System.Runtime.InteropServices;
using System.Threading;

namespace Jump
{
    public sealed partial class JumpConfig
    {
        /// <summary>Makes clients created from this config keep their session, pending record edits, cached
        /// flow, schema and Engage configuration in the app's store instead of files in storageDirectory.
        /// libjump uses a few entries under short ASCII keys ("session-*", "journal-*", "credential-*" and
        /// "social-*" hold secrets; "gist-*", "flow-*", "schema-*", "engage-*", "quarantine*" do not).
        /// <para>The delegates run on the thread of the JumpClient call that needs them (its constructor, a
        /// synchronous call), or for an async call on a libjump thread named "jump-work"; never on a thread
        /// pool worker, never at once for one key of one client. They must not call the client they serve.
        /// An exception they throw is a storage failure: a failed load is JumpStorageException (and
        /// <see cref="JumpState.RestoreErrorJson"/>), never "signed out", and deletes nothing; a failed save
        /// shows in <see cref="JumpState.StorageErrorJson"/>; a failed erase fails SignOut.</para>
        /// <para>Clients created earlier keep the storage they were created with; each created later holds
        /// these delegates until it is disposed.</para></summary>
        /// <param name="load">Returns the bytes saved under the key, or null when nothing is.</param>
        /// <param name="save">Saves the bytes under the key, replacing what was there.</param>
        /// <param name="erase">Deletes the key (a missing key is no error).</param>
        /// <returns>This config, for chaining.</returns>
        public JumpConfig SetStorage(Func<string, byte[]> load, Action<string, byte[]> save, Action<string> erase)
        {
            if (load == null) throw new ArgumentNullException("load");
            if (save == null) throw new ArgumentNullException("save");
            if (erase == null) throw new ArgumentNullException("erase");
            var storage = new HostStorage(load, save, erase);
            int status;
            try
            {
                status = Native.jump_config_set_storage(Handle, HostStorage.LoadFn, HostStorage.SaveFn, HostStorage.EraseFn,
                    storage.Id, null);
            }
            catch (Exception)
            {
                storage.Release();
                throw;
            }
            if (status != 0)
            {
                var error = JumpException.FromLastError(status);
                storage.Release();
                throw error;
            }
            var previous = Interlocked.Exchange(ref Handle.Storage, storage);
            if (previous != null) previous.Release();
            return this;
        }

        /// <summary>Goes back to files in storageDirectory for clients created from now on (those created
        /// with the host storage keep it).</summary>
        /// <returns>This config, for chaining.</returns>
        public JumpConfig ClearStorage()
        {
            JumpException.Check(Native.jump_config_set_storage(Handle, null, null, null, IntPtr.Zero, null));
            var previous = Interlocked.Exchange(ref Handle.Storage, null);
            if (previous != null) previous.Release();
            return this;
        }

        /// <summary>True while a host storage is set (<see cref="SetStorage"/>).</summary>
        public bool HasStorage { get { return Handle.Storage != null; } }
    }

    /// <summary>The app's storage delegates, registered for libjump's callbacks while a config or a client
    /// holds them.</summary>
    internal sealed class HostStorage
    {
        // Kept in static fields: native code holds pointers to them for the life of the process.
        internal static readonly Native.StorageLoadFn LoadFn = OnLoad;
        internal static readonly Native.StorageSaveFn SaveFn = OnSave;
        internal static readonly Native.StorageEraseFn EraseFn = OnErase;

        readonly Func<string, byte[]> _load;
        readonly Action<string, byte[]> _save;
        readonly Action<string> _erase;
        int _holders = 1; // the config that sets it
        internal readonly IntPtr Id;

        internal HostStorage(Func<string, byte[]> load, Action<string, byte[]> save, Action<string> erase)
        {
            _load = load;
            _save = save;
            _erase = erase;
            Id = HostRegistry.Add(this);
        }

        /// <summary>Another holder (a client created from the config). False when the last holder has already
        /// gone, which a config being disposed on another thread can cause: the client then holds nothing.</summary>
        internal bool AddRef()
        {
            while (true)
            {
                int n = Volatile.Read(ref _holders);
                if (n == 0) return false;
                if (Interlocked.CompareExchange(ref _holders, n + 1, n) == n) return true;
            }
        }

        internal void Release()
        {
            if (Interlocked.Decrement(ref _holders) == 0) HostRegistry.Remove(Id);
        }

        const int Ok = 0;

        // Each trampoline answers JUMP_E_STORAGE for an exception, and for a storage no longer registered (a
        // freed client's work still finishing): libjump then reports a storage failure and deletes nothing.

        [MonoPInvokeCallback(typeof(Native.StorageLoadFn))]
        static int OnLoad(IntPtr context, IntPtr key, IntPtr sink, IntPtr sinkContext)
        {
            try
            {
                var storage = HostRegistry.Get<HostStorage>(context);
                if (storage == null) return (int)JumpStatus.Storage;
                byte[] data = storage._load(Utf8.Read(key));
                if (data == null) return (int)JumpStatus.NotFound;
                StorageSinks.Give(sink, sinkContext, data);
                return Ok;
            }
            catch (Exception) { return (int)JumpStatus.Storage; }
        }

        [MonoPInvokeCallback(typeof(Native.StorageSaveFn))]
        static int OnSave(IntPtr context, IntPtr key, IntPtr data, UIntPtr length)
        {
            try
            {
                var storage = HostRegistry.Get<HostStorage>(context);
                if (storage == null) return (int)JumpStatus.Storage;
                var bytes = new byte[checked((int)length.ToUInt64())];
                if (bytes.Length > 0) Marshal.Copy(data, bytes, 0, bytes.Length);
                storage._save(Utf8.Read(key), bytes);
                return Ok;
            }
            catch (Exception) { return (int)JumpStatus.Storage; }
        }

        [MonoPInvokeCallback(typeof(Native.StorageEraseFn))]
        static int OnErase(IntPtr context, IntPtr key)
        {
            try
            {
                var storage = HostRegistry.Get<HostStorage>(context);
                if (storage == null) return (int)JumpStatus.Storage;
                storage._erase(Utf8.Read(key));
                return Ok;
            }
            catch (Exception) { return (int)JumpStatus.Storage; }
        }
    }
}
