# The addon built by node-gyp (what `make npm` runs, through scripts/build-npm.sh), against the Node.js headers
# installed on this machine: node-gyp rebuild --nodedir=/usr (the headers in /usr/include/node; nothing is
# downloaded). The same flags as the Makefile's plain-cc rule (build/node/jump.node): N-API 8 only, so one
# build loads in every Node.js >= 18, and nothing of node is linked. libjump is linked (-ljump, so the addon
# needs libjump.so.1) and found next to the addon: rpath $ORIGIN, where the npm package puts libjump.so.1.
# jump_include and jump_libdir say where jump.h and libjump.so are (node-gyp configure -- -Djump_libdir=...);
# by default the source tree's include/ and build/lib/.
{
  'variables': {
    'jump_include%': '<(module_root_dir)/../../include',
    'jump_libdir%': '<(module_root_dir)/../../build/lib',
  },
  'targets': [
    {
      'target_name': 'jump',
      'sources': ['src/args.c', 'src/bridge.c', 'src/bridge_guard.c', 'src/bridge_host.c', 'src/bridge_js.c',
                  'src/jump_addon.c', 'src/module.c', 'src/requests.c', 'src/sync_calls.c', 'src/work.c'],
      'include_dirs': ['<(jump_include)'],
      'defines': ['_GNU_SOURCE'],
      'cflags_c': ['-std=c99', '-Wall', '-Wextra', '-Werror', '-fvisibility=hidden'],
      'libraries': ['-L<(jump_libdir)', '-ljump'],
      'ldflags': ['-Wl,-rpath,\'$$ORIGIN\''],
    },
  ],
}
