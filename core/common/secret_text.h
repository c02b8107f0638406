// Whether a text looks like a credential (an API key or token) rather than a name: the guard that keeps a key typed
// into a field meant for a variable's name out of the store, the settings and every output.
#pragma once

#include <QString>

namespace gpuf {

// True for a text that starts like a key its issuer prints (sk-, hf_, ghp_, AIza, xoxb-, AKIA, …) or holds a long
// stretch mixing lower- and upper-case letters and digits, which environment variables are never named like.
bool looksLikeSecret(const QString &text);

} // namespace gpuf
