import CCurl

/// libcurl once per process, at the first request: its initialisation (OpenSSL's) is most of what creating a
/// client would otherwise cost, and a client restored from storage may never send one. A Swift global
/// initializer runs exactly once; curl_global_init itself is thread-safe where libcurl says so.
package let curlGlobalInit: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))
